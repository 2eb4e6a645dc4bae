import Foundation
import TestSupport
import Testing

/// The release build carries ICU's data trimmed to what HotTask reads (Packaging/trim-icu-data.py):
/// time zones, the Gregorian calendar, root and English formats. The debug build links the
/// toolchain's Foundation with ICU's full data, so the same commands run by both must print the
/// same, in zones with summer time, half hours, quarter hours and the date line, and under
/// locales whose data was left out.
@Suite("ICU's trimmed data")
struct TrimmedICUDataTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Asia/Kathmandu",
        "Pacific/Kiritimati", "America/Sao_Paulo",
    ]
    static let locales = ["C.UTF-8", "de_DE.UTF-8", "ar_EG.UTF-8"]

    /// A calendar from elsewhere: a zone it defines itself, one it only names, a series that
    /// crosses a change of summer time with a day left out, and one that ends.
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VTODO\r
        UID:trip-1\r
        SUMMARY:Book the flight\r
        DUE;TZID=America/Los_Angeles:20260328T230000\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:series-1\r
        SUMMARY:Water the plants\r
        DTSTART;TZID=Asia/Tokyo:20260325T073000\r
        DUE;TZID=Asia/Tokyo:20260325T080000\r
        RRULE:FREQ=DAILY;UNTIL=20260405T000000Z\r
        EXDATE;TZID=Asia/Tokyo:20260327T080000\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:plain-1\r
        SUMMARY:Renew the passport\r
        DUE;VALUE=DATE:20261031\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    /// Every command's output in one zone and locale, with what differs from run to run (ids,
    /// the times of the change, the folder) taken out.
    static func outputs(of hottask: String, zone: String, locale: String) -> String {
        let folder = TemporaryFolder()
        let ics = folder.write(calendar, to: "elsewhere.ics")
        let store = folder.storePath
        let script = """
            h() { '\(hottask)' --file '\(store)' "$@" 2>&1; echo "exit $?"; }
            h --import '\(ics)'
            h --add 'Stand-up' --due '2026-03-27 09:30' --repeat daily
            h --add 'Pay the rent' --due 2026-03-31 --repeat monthly
            h --add 'Call the bank' --due '2026-10-25 02:30'
            h --list
            h --list --sort due
            h --done 3
            h --done 2
            h --list --json
            h --export '\(folder.path("out.ics"))' --export-format ics
            cat '\(folder.path("out.ics"))'
            h --stats
            """
        let run = runProcess(["sh", "-c", script], environment: ["TZ": zone, "LANG": locale, "LC_ALL": locale, "HOME": folder.path])
        let volatile = ["DTSTAMP", "CREATED", "LAST-MODIFIED", "X-HOTTASK-CLOCKS", "UID:", "\"id\"", "At\":"]
        // Unfolded first: a long X-HOTTASK-CLOCKS line goes on in a line of its own.
        return run.stdout.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: folder.path, with: "FOLDER")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !volatile.contains { line.contains($0) } }
            .joined(separator: "\n")
    }

    @Test("the release build prints what the full data prints, in every zone and locale tried")
    func theReleaseBuildPrintsWhatTheFullDataPrints() throws {
        let installed = try requireVariable("HOTTASK_INSTALLED") + "/bin/hottask"
        for zone in Self.zones {
            for locale in Self.locales {
                let full = Self.outputs(of: HotTaskBinary.builtBesideTheTests.path, zone: zone, locale: locale)
                let trimmed = Self.outputs(of: installed, zone: zone, locale: locale)
                #expect(full.contains("Water the plants") && full.contains("exit 0"), "\(zone) \(locale): \(full)")
                #expect(trimmed == full, "\(zone) \(locale)")
            }
        }
    }

    @Test("the release build carries the trimmed data, not ICU's 34 MB")
    func theReleaseBuildCarriesTheTrimmedData() throws {
        let installed = try requireVariable("HOTTASK_INSTALLED") + "/bin/hottask"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: installed)[.size] as? Int)
        // 33 MB with the trimmed data; 62 MB with the full data (both stripped by `make install`).
        #expect(size < 40_000_000, "hottask is \(size) bytes: did Packaging/trim-icu-data.py keep the full data?")
    }
}
