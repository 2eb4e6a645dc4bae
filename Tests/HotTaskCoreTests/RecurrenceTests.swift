import Foundation
import Testing

@testable import HotTaskCore

/// Completing one occurrence of a repeating task moves it on to the next, exactly; rules that
/// cannot be stepped exactly are refused.
@Suite("Recurrence")
struct RecurrenceTests {
    func todo(_ lines: String...) -> ICalComponent { todo(lines) }

    func todo(_ lines: [String]) -> ICalComponent {
        ICalComponent(
            name: "VTODO",
            properties: lines.compactMap { line in
                let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
                let head = parts[0].split(separator: ";", maxSplits: 1).map(String.init)
                return ICalProperty(name: head[0], parameters: head.count > 1 ? ";" + head[1] : "", value: parts[1])
            })
    }

    func next(_ rule: String, start: String, due: String? = nil) -> (start: String?, due: String?, rule: String?)? {
        var lines = ["UID:x", "SUMMARY:Water plants", "STATUS:IN-PROCESS", "DTSTART;TZID=Europe/Berlin:\(start)", "RRULE:\(rule)"]
        if let due { lines.append("DUE;TZID=Europe/Berlin:\(due)") }
        guard case .next(let advanced) = Recurrence.advance(todo(lines)) else { return nil }
        #expect(advanced.first("STATUS")?.value == "NEEDS-ACTION")
        #expect(advanced.first("DTSTART")?.parameters == ";TZID=Europe/Berlin", "parameters kept")
        return (advanced.first("DTSTART")?.value, advanced.first("DUE")?.value, advanced.first("RRULE")?.value)
    }

    @Test("daily, weekly, monthly and yearly rules step to the next occurrence, wall clock kept across DST")
    func steps() {
        #expect(next("FREQ=DAILY", start: "20261024T090000")?.start == "20261025T090000")
        #expect(next("FREQ=DAILY;INTERVAL=3", start: "20261230T090000")?.start == "20270102T090000")
        // Weekly on Monday and Thursday, from a Thursday: the next Monday.
        #expect(next("FREQ=WEEKLY;BYDAY=MO,TH", start: "20261126T180000")?.start == "20261130T180000")
        // Every second week on Monday and Thursday, from a Thursday: Monday two weeks on.
        #expect(next("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", start: "20261126T180000")?.start == "20261207T180000")
        #expect(next("FREQ=WEEKLY", start: "20261126")?.start == "20261203")
        // The 31st: months without one are skipped.
        #expect(next("FREQ=MONTHLY", start: "20260131T080000")?.start == "20260331T080000")
        // The last Friday, the second Tuesday.
        #expect(next("FREQ=MONTHLY;BYDAY=-1FR", start: "20261127T100000")?.start == "20261225T100000")
        #expect(next("FREQ=MONTHLY;BYDAY=2TU", start: "20261110T100000")?.start == "20261208T100000")
        #expect(next("FREQ=YEARLY", start: "20240229")?.start == "20280229")
        #expect(next("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", start: "20261127T070000")?.start == "20261130T070000")
    }

    @Test("DUE moves with DTSTART; COUNT counts down; the last occurrence (COUNT=1, past UNTIL) completes the series")
    func dueCountUntil() {
        let moved = next("FREQ=WEEKLY;COUNT=3", start: "20261126T090000", due: "20261127T170000")
        #expect(moved?.start == "20261203T090000" && moved?.due == "20261204T170000")
        #expect(moved?.rule == "FREQ=WEEKLY;COUNT=2")
        #expect(Recurrence.advance(todo("UID:x", "DTSTART:20261126", "RRULE:FREQ=DAILY;COUNT=1")) == .lastOccurrence)
        #expect(Recurrence.advance(todo("UID:x", "DUE:20261126", "RRULE:FREQ=DAILY;UNTIL=20261126")) == .lastOccurrence)
        #expect(next("FREQ=DAILY;UNTIL=20261127", start: "20261126T090000")?.start == "20261127T090000")
        #expect(Recurrence.advance(todo("UID:x", "DUE:20261126")) == .notRepeating)
    }

    @Test("rules HotTask cannot step exactly are refused with what it could not do")
    func refused() {
        for (rule, extra) in [
            ("FREQ=MONTHLY;BYMONTHDAY=15", nil), ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1", nil), ("FREQ=HOURLY", nil),
            ("FREQ=WEEKLY;BYDAY=2MO", nil), ("FREQ=YEARLY;BYDAY=1SU", nil), ("FREQ=DAILY", "EXDATE:20261127"),
            ("FREQ=WEEKLY;WKST=SU", nil),
        ] as [(String, String?)] {
            let lines = ["UID:x", "DTSTART:20261126", "RRULE:\(rule)"] + (extra.map { [$0] } ?? [])
            guard case .unsupported(let reason) = Recurrence.advance(todo(lines)) else {
                Issue.record("\(rule) was stepped")
                continue
            }
            #expect(!reason.isEmpty)
        }
        guard case .unsupported(let reason) = Recurrence.advance(todo("UID:x", "RRULE:FREQ=DAILY")) else {
            Issue.record("a rule without a date was stepped")
            return
        }
        #expect(reason.contains("DTSTART"))
    }
}
