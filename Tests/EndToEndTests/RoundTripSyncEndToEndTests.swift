import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 41 against real servers with Python's caldav as the phone: a phone's to-do without a
/// title never fails a sync and syncs both ways, a body HotTask cannot parse is named once and
/// skipped, and every body HotTask writes (PUT, .ics, vdir) parses strictly, each TZID with its
/// VTIMEZONE.
@Suite("Round trips with real CalDAV servers", .serialized)
struct RoundTripSyncEndToEndTests {
    let folder = TemporaryFolder()

    /// `hottask` on this test's store and config, in the zone `Europe/Berlin` (a due time typed
    /// here is written with its TZID).
    func hottask(_ arguments: String..., config: String) -> HotTaskRun {
        HotTaskRun(
            runHotTask(
                ["--file", folder.storePath, "--config", config] + arguments, environment: ["TZ": "Europe/Berlin"], timeout: 90))
    }

    func config(_ url: String) -> String {
        folder.write("[sync]\nurl = \"\(url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "config.toml")
    }

    /// A phone's VTODO, SUMMARY given as written (nil: none at all).
    static func object(uid: String, summary: String?) -> String {
        let lines =
            ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T100000Z"]
            + (summary.map { ["SUMMARY:\($0)"] } ?? []) + ["STATUS:NEEDS-ACTION", "END:VTODO", "END:VCALENDAR"]
        return lines.joined(separator: "\\r\\n") + "\\r\\n"
    }

    /// Checks every file given with `Tests/Scripts/ics_strict.py` (the `ical` library and RFC
    /// 5545's rules on lines, UIDs and VTIMEZONEs).
    func expectStrict(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let run = runProcess(["python3", CalDAVTestServer.scripts + "/ics_strict.py"] + paths, timeout: 120)
        #expect(run.status == 0 && run.stdout.hasPrefix("ok: "), "\(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
    }

    @Test(
        "a phone's to-do without a title, or with a line break in it, syncs both ways and never fails a sync; every PUT parses strictly",
        arguments: [CalDAVTestServer.Kind.radicale, .xandikos])
    func untitledTasksSync(kind: CalDAVTestServer.Kind) throws {
        let server = try CalDAVTestServer(kind)
        let control = folder.path("control.json")
        let url = try server.startProxy(controlPath: control)
        let config = config(url)
        try server.phone(nil, "add-raw", Self.object(uid: "none", summary: nil))
        try server.phone(nil, "add-raw", Self.object(uid: "empty", summary: ""))
        try server.phone(nil, "add-raw", Self.object(uid: "blank", summary: "   "))
        try server.phone(nil, "add-raw", Self.object(uid: "breaks", summary: "Milch\\nund Brot"))
        expectOutput(
            hottask("--sync", config: config),
            stdout: "Synced with \(url): pulled 4, pushed 0, merged 0, deleted 0 here and 0 on the server\n", command: "hottask --sync")
        expectOutput(
            hottask("--list", config: config),
            stdout: """
                Get started - 4 to go!

                Top Priority (0)
                  (none)
                Bonus (4)
                  1. [ ] (no title)
                  2. [ ] (no title)
                  3. [ ] (no title)
                  4. [ ] Milch und Brot

                """, command: "hottask --list")
        // Completed here, edited here, and a due time with its zone: written back with only that changed.
        let id = { (uid: String) in String(TodoMapping.id(forUID: uid).uuidString.lowercased().prefix(8)) }
        expectOutput(hottask("--done", id("none"), config: config), stdout: "Completed: (no title)\n", command: "hottask --done")
        expectOutput(
            hottask("--edit", id("empty"), "Named here", config: config), stdout: "Edited: (no title) → Named here\n", command: "hottask --edit")
        expectOutput(
            hottask("--edit", id("breaks"), "--due", "2030-12-01T09:30", config: config), stdout: "Due 2030-12-01 09:30: Milch und Brot\n",
            command: "hottask --edit --due")
        expectOutput(
            hottask("--sync", config: config),
            stdout: "Synced with \(url): pulled 0, pushed 3, merged 0, deleted 0 here and 0 on the server\n", command: "hottask --sync")
        var phone = try #require(try server.phone(nil, "list") as? [[String: Any]])
        let byUID = Dictionary(phone.map { ($0["uid"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byUID["none"]?["completed"] as? Bool == true)
        #expect(byUID["none"]?["summary_raw"] is NSNull, "no SUMMARY made up")
        #expect(byUID["empty"]?["summary_raw"] as? String == "Named here")
        #expect((byUID["blank"]?["summary_raw"] as? String)?.trimmingCharacters(in: .whitespaces) == "", "left alone")
        #expect(byUID["breaks"]?["summary_raw"] as? String == "Milch\nund Brot", "the line break stays")
        #expect(byUID["breaks"]?["due_tzid"] as? String == "Europe/Berlin")
        // The phone names the blank one: it arrives.
        try server.phone(nil, "edit", "uid:blank", "--summary", "Named on the phone")
        expectOutput(
            hottask("--sync", config: config),
            stdout: "Synced with \(url): pulled 1, pushed 0, merged 0, deleted 0 here and 0 on the server\n", command: "hottask --sync")
        phone = try #require(try server.phone(nil, "list") as? [[String: Any]])
        #expect(phone.count == 4)
        expectOutput(
            hottask("--list", config: config),
            stdout: """
                1 down 3 to go!

                Top Priority (0)
                  (none)
                Bonus (4)
                  1. [x] (no title)
                  2. [ ] Named here
                  3. [ ] Milch und Brot  (due 2030-12-01 09:30)
                  4. [ ] Named on the phone

                """, command: "hottask --list")
        let puts = folder.path("control.json.puts")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: puts)) ?? []).count == 3)
        expectStrict([puts])
    }

    @Test("a body HotTask cannot parse is named once with the parser's reason, skipped, and read again when mended")
    func anUnparsableBodyIsNamedOnce() throws {
        // Xandikos keeps a body as it was PUT (Radicale rewrites every body it stores).
        let server = try CalDAVTestServer(.xandikos)
        let config = config(server.url)
        let bad = Self.object(uid: "bad", summary: "Bad").replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "X_UNDERSCORE:1")
        try server.phone(nil, "put-raw", "bad.ics", bad)
        try server.phone(nil, "add", "Fine")
        let href = (URL(string: server.url)?.path ?? "") + "/bad.ics"
        expectOutput(
            hottask("--sync", config: config),
            stdout: "Synced with \(server.url): pulled 1, pushed 0, merged 0, deleted 0 here and 0 on the server\n",
            stderr:
                "hottask: note: skipped \(href): it is not iCalendar HotTask can read (line 8: not a content line (NAME:value)); it is left alone there, and read again when it changes\n",
            command: "hottask --sync")
        _ = hottask("--add", "Here", config: config)
        expectOutput(
            hottask("--sync", config: config),
            stdout: "Synced with \(server.url): pulled 0, pushed 1, merged 0, deleted 0 here and 0 on the server\n", command: "hottask --sync")
        try server.phone(nil, "put-raw", "bad.ics", Self.object(uid: "bad", summary: "Mended"))
        expectOutput(
            hottask("--sync", config: config),
            stdout: "Synced with \(server.url): pulled 1, pushed 0, merged 0, deleted 0 here and 0 on the server\n", command: "hottask --sync")
        #expect(hottask("--list", config: config).stdout.contains("[ ] Mended\n"))
    }

    /// The .ics and vdir exports of tasks due in named zones (one typed here, one from a file
    /// with an Outlook zone and its own VTIMEZONE) parse strictly, each TZID with its VTIMEZONE.
    @Test func everyExportedFileParsesStrictly() throws {
        let config = folder.write("", to: "empty.toml")
        _ = hottask("--add", "Call the office", "--due", "2026-03-29T09:30", config: config)
        _ = hottask("--add", "Untitled soon", config: config)
        let outlook = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Microsoft//EN\r
            BEGIN:VTIMEZONE\r
            TZID:W. Europe Standard Time\r
            BEGIN:STANDARD\r
            DTSTART:16010101T030000\r
            TZOFFSETFROM:+0200\r
            TZOFFSETTO:+0100\r
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r
            END:STANDARD\r
            BEGIN:DAYLIGHT\r
            DTSTART:16010101T020000\r
            TZOFFSETFROM:+0100\r
            TZOFFSETTO:+0200\r
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r
            END:DAYLIGHT\r
            END:VTIMEZONE\r
            BEGIN:VTODO\r
            UID:outlook-1\r
            DTSTAMP:20261120T100000Z\r
            SUMMARY:From Outlook\r
            DUE;TZID=W. Europe Standard Time:20261201T093000\r
            END:VTODO\r
            BEGIN:VTODO\r
            UID:tokyo-1\r
            DTSTAMP:20261120T100000Z\r
            SUMMARY:Tokyo call\r
            DUE;TZID=Asia/Tokyo:20261201T093000\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        let file = folder.write(outlook, to: "outlook.ics")
        #expect(hottask("--import", file, config: config).status == 0)
        // Changed here: written again, with its VTIMEZONE.
        _ = hottask("--done", String(TodoMapping.id(forUID: "tokyo-1").uuidString.lowercased().prefix(8)), config: config)
        expectOutput(
            hottask("--export", folder.path("out.ics"), "--export-format", "ics", config: config),
            stdout: "Exported 4 tasks to \(folder.path("out.ics"))\n", command: "hottask --export out.ics")
        expectOutput(
            hottask("--export", folder.path("vdir"), "--export-format", "vdir", config: config),
            stdout: "Exported 4 tasks to the folder \(folder.path("vdir")): 4 files added, 0 changed, 0 unchanged\n", command: "hottask --export vdir"
        )
        let ics = fileText(folder.path("out.ics")) ?? ""
        for zone in ["Europe/Berlin", "Asia/Tokyo", "W. Europe Standard Time"] {
            #expect(ics.components(separatedBy: "BEGIN:VTIMEZONE\r\nTZID:\(zone)\r\n").count == 2, "one VTIMEZONE for \(zone)")
        }
        expectStrict([folder.path("out.ics"), folder.path("vdir")])
        // Unchanged, an export gives the same bytes (no DTSTAMP moved).
        _ = hottask("--export", folder.path("again.ics"), "--export-format", "ics", config: config)
        #expect(fileText(folder.path("again.ics")) == ics)
    }
}
