import Foundation
import Testing

@testable import HotTaskCore

/// HotTask's own zones (the system's zoneinfo files) against Foundation's `TimeZone` (ICU's
/// data), which the tests still link: the same offset at every change from 1970 to 2099 and
/// in between, in zones with summer time both ways, half and quarter hours, the date line,
/// changes past midnight or before it, and none.
@Suite("Time zones from the system's zoneinfo")
struct ZoneInfoTests {
    static let zones = [
        "UTC", "Europe/Berlin", "Europe/London", "Europe/Dublin", "Europe/Moscow", "America/New_York", "America/Los_Angeles",
        "America/Sao_Paulo", "America/St_Johns", "America/Havana", "America/Nuuk", "America/Phoenix", "Asia/Kolkata",
        "Asia/Kathmandu", "Asia/Tokyo", "Asia/Tehran", "Asia/Jerusalem", "Asia/Shanghai", "Australia/Sydney", "Australia/Lord_Howe",
        "Australia/Adelaide", "Pacific/Auckland", "Pacific/Chatham", "Pacific/Kiritimati", "Pacific/Apia", "Antarctica/Troll",
    ]
    static let end = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01

    @Test("every change and every few days from 1970 to 2099 have Foundation's offset", arguments: zones)
    func offsetsAreFoundations(_ name: String) throws {
        let ours = try #require(ZoneInfo(identifier: name))
        let theirs = try #require(TimeZone(identifier: name))
        var instants: [Date] = []
        var change = Date(timeIntervalSince1970: 0)
        while let next = theirs.nextDaylightSavingTimeTransition(after: change), next < Self.end {
            instants += [next.addingTimeInterval(-1), next, next.addingTimeInterval(1)]
            change = next
        }
        // Every 53 hours as well: changes of standard time, which the above does not list.
        instants += stride(from: 0.0, to: Self.end.timeIntervalSince1970, by: 53 * 3600).map(Date.init(timeIntervalSince1970:))
        let differing = instants.filter { ours.secondsFromGMT(for: $0) != theirs.secondsFromGMT(for: $0) }
        #expect(
            differing.isEmpty,
            "\(name) differs at \(differing.prefix(3).map { "\($0): \(ours.secondsFromGMT(for: $0)) against \(theirs.secondsFromGMT(for: $0))" })")
    }

    @Test("fixed offsets and UTC's names need no file")
    func fixedOffsets() {
        #expect(ZoneInfo(identifier: "UTC")?.secondsFromGMT(for: Date()) == 0)
        #expect(ZoneInfo(identifier: "GMT+05:30")?.secondsFromGMT(for: Date()) == 19_800)
        #expect(ZoneInfo(identifier: "GMT-8")?.secondsFromGMT(for: Date()) == -28_800)
        #expect(ZoneInfo(secondsFromGMT: 3600)?.identifier == "GMT+0100")
        #expect(ZoneInfo(secondsFromGMT: -34_200)?.identifier == "GMT-0930")
        #expect(ZoneInfo(secondsFromGMT: 20 * 3600) == nil)
    }

    @Test("a name never reaches outside the zoneinfo folder, and an unknown one is nil")
    func namesStayInTheFolder() {
        for name in ["../../../etc/passwd", "/etc/localtime", "Europe/../../etc/hostname", "", "Mars/Olympus_Mons", "Europe/Paris\u{0}x"] {
            #expect(ZoneInfo(identifier: name) == nil, "\(name)")
        }
    }

    @Test("the process's zone: TZ as a name, :name, or a POSIX rule; else /etc/localtime's")
    func currentZone() throws {
        #expect(ZoneInfo.current(environment: ["TZ": "Asia/Kolkata"]).identifier == "Asia/Kolkata")
        #expect(ZoneInfo.current(environment: ["TZ": ":Europe/Berlin"]).identifier == "Europe/Berlin")
        let rule = ZoneInfo.current(environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"])
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        for day in stride(from: 0.0, to: 366, by: 0.5) {
            let date = Date(timeIntervalSince1970: 1_767_225_600 + day * 86_400)
            #expect(rule.secondsFromGMT(for: date) == berlin.secondsFromGMT(for: date), "\(date)")
        }
        #expect(ZoneInfo.current(environment: ["TZ": "Nowhere/Atlantis"]).secondsFromGMT(for: Date()) == 0)
        let system = ZoneInfo.current(environment: [:])
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")
        #expect(link.hasSuffix("/" + system.identifier))
    }
}
