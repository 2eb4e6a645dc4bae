import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Taskwarrior's `recur` as HotTask's repeat rules (issue 40): which `recur` values map, and how
/// a template with its occurrences folds into one repeating task, the same on both readers.
@Suite("Taskwarrior recur")
struct TaskwarriorRecurTests {
    private static func due(_ text: String) -> DueDate { DueDate.fromTaskwarrior(TaskwarriorSample.date(text))! }

    @Test(
        "each recur maps to the rule that steps the dates Taskwarrior steps, or to none",
        arguments: [
            ("weekly", "20261120T090000Z", "FREQ=WEEKLY"),
            ("daily", "20261120T090000Z", "FREQ=DAILY"),
            ("10d", "20261120T090000Z", "FREQ=DAILY;INTERVAL=10"),
            ("3wks", "20261120T090000Z", "FREQ=WEEKLY;INTERVAL=3"),
            ("biweekly", "20261120T090000Z", "FREQ=WEEKLY;INTERVAL=2"),
            ("P2W", "20261120T090000Z", "FREQ=WEEKLY;INTERVAL=2"),
            ("weekdays", "20261120T090000Z", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"),
            ("monthly", "20261115T090000Z", "FREQ=MONTHLY"),
            ("quarterly", "20261115T090000Z", "FREQ=MONTHLY;INTERVAL=3"),
            ("2m", "20261115T090000Z", "FREQ=MONTHLY;INTERVAL=2"),
            // Taskwarrior moves the 31st to the month's last day; an RRULE skips the month.
            ("monthly", "20260131T090000Z", ""),
            ("quarterly", "20260829T090000Z", ""),
            ("yearly", "20280229T090000Z", ""),
            ("annual", "20261115T090000Z", "FREQ=YEARLY"),
            ("biannual", "20261115T090000Z", "FREQ=YEARLY;INTERVAL=2"),
            // Durations: 30 and 365 days, as Taskwarrior steps them.
            ("2mo", "20261115T090000Z", "FREQ=DAILY;INTERVAL=60"),
            ("1y", "20261115T090000Z", "FREQ=DAILY;INTERVAL=365"),
            ("2h", "20261115T090000Z", ""),
            ("sennight", "20261115T090000Z", ""),
        ])
    func recurMaps(recur: String, anchor: String, rrule: String) {
        #expect(TaskwarriorRecur.rule(recur: recur, until: nil, anchor: Self.due(anchor))?.rrule ?? "" == rrule)
    }

    @Test func untilBecomesTheRulesUntil() {
        let rule = TaskwarriorRecur.rule(recur: "weekly", until: TaskwarriorSample.date("20270101T090000Z"), anchor: Self.due("20261120T090000Z"))
        #expect(rule?.rrule == "FREQ=WEEKLY;UNTIL=20270101T090000Z")
        #expect(TaskwarriorRecur.recur(for: rule!, anchor: Self.due("20261120T090000Z"))! == ("weekly", "20270101T090000Z"))
    }

    @Test(
        "a rule maps back to the recur that steps the same dates, or to none",
        arguments: [
            ("FREQ=WEEKLY", "weekly"),
            ("FREQ=WEEKLY;INTERVAL=2", "2w"),
            ("FREQ=WEEKLY;BYDAY=FR", "weekly"),  // 2026-11-20 is a Friday
            ("FREQ=WEEKLY;BYDAY=MO,TH", ""),
            ("FREQ=DAILY", "daily"),
            ("FREQ=DAILY;INTERVAL=3", "3d"),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "weekdays"),
            ("FREQ=MONTHLY", "monthly"),
            ("FREQ=MONTHLY;INTERVAL=6", "semiannual"),
            ("FREQ=MONTHLY;INTERVAL=5", "5m"),
            ("FREQ=MONTHLY;BYDAY=1MO", ""),
            ("FREQ=YEARLY", "yearly"),
            ("FREQ=YEARLY;INTERVAL=3", ""),
        ])
    func ruleMapsBack(rrule: String, recur: String) throws {
        let rule = try #require(RepeatRule(rrule: rrule))
        #expect(TaskwarriorRecur.recur(for: rule, anchor: Self.due("20261120T090000Z"))?.recur ?? "" == recur)
    }

    @Test func aCountBecomesTheUntilOfItsLastOccurrence() throws {
        let rule = try #require(RepeatRule(rrule: "FREQ=WEEKLY;COUNT=3"))
        #expect(TaskwarriorRecur.recur(for: rule, anchor: Self.due("20261120T090000Z"))! == ("weekly", "20261204T090000Z"))
    }

    // MARK: Folding

    private static let weekly = "b0000000-0000-4000-8000-000000000001"
    private static let monthly = "b0000000-0000-4000-8000-000000000002"
    private static let finished = "b0000000-0000-4000-8000-000000000003"
    private static let hourly = "b0000000-0000-4000-8000-000000000004"
    private static let gone = "b0000000-0000-4000-8000-0000000000ff"

    private static func template(_ uuid: String, _ caption: String, due: String, recur: String, mask: String, until: String? = nil) -> String {
        #"{"description":"\#(caption)","due":"\#(due)","entry":"20261101T080000Z","mask":"\#(mask)","modified":"20261101T080000Z","recur":"\#(recur)","rtype":"periodic","status":"recurring","uuid":"\#(uuid)""#
            + (until.map { #","until":"\#($0)""# } ?? "") + "}"
    }

    private static func occurrence(_ parent: String, _ index: Int, _ caption: String, due: String, status: String = "pending") -> String {
        #"{"description":"\#(caption)","due":"\#(due)","entry":"20261101T080000Z","imask":\#(index),"modified":"20261101T080000Z","parent":"\#(parent)","recur":"weekly","rtype":"periodic","status":"\#(status)","uuid":"c\#(parent.dropFirst().dropLast(4))\#(parent.suffix(2))\#(String(format: "%02d", index))""#
            + (status == "completed" ? #","end":"20261121T080000Z""# : "") + "}"
    }

    /// Two live recurrences (one with a done occurrence and two pending, one with an until), one
    /// whose occurrences are all done, one HotTask cannot step, an occurrence whose template is
    /// not in the file, and a plain task.
    private static let export: String = {
        let items = [
            template(weekly, "Water plants", due: "20261113T090000Z", recur: "weekly", mask: "+--"),
            template(monthly, "Pay rent", due: "20261101T090000Z", recur: "monthly", mask: "-", until: "20270601T090000Z"),
            template(finished, "Stretch", due: "20261101T090000Z", recur: "daily", mask: "++"),
            template(hourly, "Drink water", due: "20261101T090000Z", recur: "2h", mask: "-"),
            occurrence(weekly, 0, "Water plants", due: "20261113T090000Z", status: "completed"),
            // Out of order: the earliest pending is the task's due date, and its caption.
            occurrence(weekly, 2, "Water plants", due: "20261127T090000Z"),
            occurrence(weekly, 1, "Water the plants", due: "20261120T090000Z"),
            occurrence(monthly, 0, "Pay rent", due: "20261101T090000Z"),
            occurrence(finished, 0, "Stretch", due: "20261101T090000Z", status: "completed"),
            occurrence(finished, 1, "Stretch", due: "20261102T090000Z", status: "completed"),
            occurrence(hourly, 0, "Drink water", due: "20261101T090000Z"),
            occurrence(gone, 0, "Orphan", due: "20261101T090000Z"),
            #"{"description":"Plain","entry":"20261101T080000Z","status":"pending","uuid":"b0000000-0000-4000-8000-000000000009"}"#,
        ]
        return "[\n" + items.joined(separator: ",\n") + "\n]\n"
    }()

    @Test func eachRecurrenceFoldsIntoOneRepeatingTaskOnBothReaders() throws {
        let bytes = Array(Self.export.utf8)
        guard case .array(let items) = try JSONParser.parse(bytes) else { throw DocumentError.invalid("no array") }
        let strict = try TaskwarriorFormat.batch(from: items.enumerated().map { ("task \($0.offset + 1)", $0.element) })
        let fast = try #require(JSONParser.decodeTaskwarriorFast(bytes))
        #expect(fast == strict)
        let tasks = strict.tasks.map {
            "\($0.caption) | \($0.id.uuidString.lowercased().suffix(2)) | \($0.due?.taskwarriorText() ?? "-") | \($0.repeatRule.rrule) | \($0.completed)"
        }
        #expect(
            tasks == [
                "Water the plants | 01 | 20261120T090000Z | FREQ=WEEKLY | false",
                "Pay rent | 02 | 20261101T090000Z | FREQ=MONTHLY;UNTIL=20270601T090000Z | false",
                // None pending: due where Taskwarrior makes the next (the mask made two).
                "Stretch | 03 | 20261103T090000Z | FREQ=DAILY | false",
                "Drink water | 00 | 20261101T090000Z |  | false",
                "Orphan | 00 | 20261101T090000Z |  | false",
                "Plain | 09 | - |  | false",
            ])
        // The occurrences folded in, and the template skipped.
        #expect(strict.skipped == 7)
        #expect(
            strict.losses.sentences == [
                "3 recurring tasks became repeating tasks, due at the next occurrence; 6 occurrences are not tasks of their own",
                "skipped 1 recurrence template HotTask cannot repeat exactly (recur:2h); the tasks it made are imported one by one",
                "1 task of a recurrence whose template is not in the file is imported one by one",
            ])
    }

    @Test func aRepeatTaskwarriorCannotSayTravelsAsItsOwnField() throws {
        var task = TaskItem(id: UUID(), caption: "Gym", section: .bonus, createdAt: TaskwarriorSample.date("20261101T080000Z"))
        task.due = Self.due("20261130T090000Z")
        task.repeatRule = try #require(RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO,TH"))
        let text = TaskwarriorFormat.text(for: TaskList([task]))
        #expect(String(decoding: text, as: UTF8.self).contains(#""status":"pending","#))
        #expect(String(decoding: text, as: UTF8.self).contains(#""hottask_repeat":"FREQ=WEEKLY;BYDAY=MO,TH""#))
        let back = try #require(JSONParser.decodeTaskwarriorFast(text))
        #expect(back.tasks.map(\.repeatRule) == [task.repeatRule])
        #expect(back.losses.sentences == [])
    }
}
