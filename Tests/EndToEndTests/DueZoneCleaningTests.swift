import Foundation
import TestSupport
import Testing

/// Issue 50, finding 9: a zone name from a file or a server (`DUE;TZID=…`, a store's
/// `dueZone`) is cleaned as every other field is: no C1 or bidi control reaches `--list --json`
/// or a terminal.
@Suite("Zone names are cleaned")
struct DueZoneCleaningTests {
    let folder = TemporaryFolder()

    private func expectListed(zone: String, store: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectRun(
            ["--file", store, "--list", "--json"],
            stdout: """
                {
                  "version": 2,
                  "tasks": [
                    {
                      "id": "[..]",
                      "caption": "Review",
                      "section": "bonus",
                      "completed": false,
                      "createdAt": "[..]",
                      "completedAt": null,
                      "modifiedAt": "[..]",
                      "due": "2999-03-01T08:00:00+01:00",
                      "dueZone": "\(zone)"
                    }
                  ]
                }

                """, sourceLocation: sourceLocation)
    }

    @Test func aZoneNameWithC1AndBidiControlsIsCleanedOnImportAndInTheStore() throws {
        // NEL, a right-to-left override and an 8-bit CSI with its parameters, inside a known name.
        let hostile = "Europe/\u{85}Ber\u{202E}lin\u{9B}31m"
        let file = folder.write(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\nBEGIN:VTODO\r\nUID:zone-1\r\nSUMMARY:Review\r\n"
                + "DUE;TZID=\"\(hostile)\":29990301T080000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", to: "hostile.ics")
        expectRun(
            ["--file", folder.storePath, "--import", file], stdout: "Imported from iCalendar \(file): added 1, updated 0, unchanged 0, skipped 0\n",
            stderr: "")
        expectListed(zone: "Europe/Berlin", store: folder.storePath)
        // A store written by hand (or by another program) with the same name.
        let listed = runHotTask(["--file", folder.storePath, "--list", "--json"]).stdout
        let written = listed.replacingOccurrences(of: "\"dueZone\": \"Europe/Berlin\"", with: "\"dueZone\": \"Europe/\\u0085Ber\u{202E}lin\"")
        #expect(written != listed)
        expectListed(zone: "Europe/Berlin", store: folder.write(written, to: "other.json"))
    }
}
