import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Timestamps")
struct TimestampTests {
    @Test("formats as ISO 8601 in UTC to the second")
    func format() {
        #expect(Timestamp.format(Fixtures.baseDate) == "2026-11-21T10:00:00Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.format(Fixtures.baseDate.addingTimeInterval(0.9)) == "2026-11-21T10:00:00Z")
        // A year past 9999 keeps all its digits (10000 is a leap year); one before year 0 is written as year 0.
        #expect(Timestamp.format(Date(timeIntervalSince1970: 253_402_300_800 + 86_400 * 59 + 3_723)) == "10000-02-29T01:02:03Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -62_167_219_200 - 86_400)) == "0000-12-31T00:00:00Z")
    }

    @Test(
        "reads the dates it writes",
        arguments: [
            "2026-11-21T10:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z",
            "1969-07-20T20:17:00Z", "1900-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2099-12-31T23:59:59Z",
        ])
    func roundTrip(text: String) throws {
        let date = try #require(Timestamp.parse(text))
        #expect(Timestamp.format(date) == text)
    }

    @Test(
        "reads offsets, fractions and lower case",
        arguments: [
            ("2026-11-21T10:00:00Z", 1_795_255_200),
            ("2026-11-21T12:00:00+02:00", 1_795_255_200),
            ("2026-11-21T05:30:00-04:30", 1_795_255_200),
            ("2026-11-21T10:00:00+00:00", 1_795_255_200),
            ("2026-11-21T10:00:00.999Z", 1_795_255_200),
            ("2026-11-21T12:00:00.5+02:00", 1_795_255_200),
            ("2026-11-21t10:00:00z", 1_795_255_200),
            ("2026-11-22T01:00:00+15:00", 1_795_255_200),
            ("1969-07-20T20:17:00Z", -14_182_980),
            ("2024-02-29T12:00:00Z", 1_709_208_000),
        ])
    func parse(text: String, seconds: Int) {
        #expect(Timestamp.parse(text) == Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test(
        "rejects what is not a date",
        arguments: [
            "", "garbage", "2026-02-30T10:00:00Z", "2026-13-01T10:00:00Z", "2026-00-10T10:00:00Z",
            "2026-11-00T10:00:00Z", "2025-02-29T10:00:00Z", "1900-02-29T10:00:00Z", "2026-04-31T10:00:00Z",
            "2026-11-21T24:00:00Z", "2026-11-21T10:60:00Z", "2026-11-21T10:00:00", "2026-11-21 10:00:00Z",
            "2026-11-21T10:00:00.Z", "2026-11-21T10:00Z", "26-11-21T10:00:00Z", "2026-11-21T10:00:00Zjunk",
            "2026-11-21T10:00:00+0200", "20261121T100000Z", "2026-1-21T10:00:00Z",
        ])
    func rejects(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test("rejects impossible UTC offsets", arguments: ["2026-11-21T10:00:00+24:00", "2026-11-21T10:00:00+02:60", "2026-11-21T10:00:00-99:99"])
    func rejectsOffsets(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test("reads Taskwarrior's compact form")
    func taskwarrior() {
        #expect(Timestamp.parseTaskwarrior("20261121T100000Z") == Fixtures.baseDate)
        #expect(Timestamp.parseTaskwarrior("20240229T120000Z") == Date(timeIntervalSince1970: 1_709_208_000))
        #expect(Timestamp.parseTaskwarrior("19690720T201700Z") == Date(timeIntervalSince1970: -14_182_980))
    }

    @Test(
        "rejects malformed Taskwarrior dates",
        arguments: [
            "", "2026-11-21T10:00:00Z", "20261121T100000", "20261121100000Z", "20260230T100000Z",
            "20261321T100000Z", "20261121T250000Z", "20261121T100000Zx",
        ])
    func taskwarriorRejects(text: String) {
        #expect(Timestamp.parseTaskwarrior(text) == nil)
    }

    @Test("now is a whole second")
    func nowIsWholeSecond() {
        let now = Timestamp.now()
        #expect(now.timeIntervalSince1970 == now.timeIntervalSince1970.rounded(.down))
        #expect(Timestamp.parse(Timestamp.format(now)) == now)
    }

    @Test(
        "dates outside years 0000–9999 in UTC are refused, so every stored date reads back",
        arguments: ["9999-12-31T23:59:59-01:00", "0000-01-01T00:30:00+01:00"])
    func outOfRange(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }
}
