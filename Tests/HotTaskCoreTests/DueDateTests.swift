import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Due dates in the model, the store and the change log.
@Suite("Due dates")
struct DueDateTests {
    static let berlin = ZoneInfo(identifier: "Europe/Berlin")!

    @Test func aTaskStaysAsSmallAsItCanWithItsDueDateAndClock() {
        // 128 bytes before due dates; the packed date adds 8 and its clock 12, and the
        // completion date packed the same way gives 8 back; the box of notes adds 8, and a
        // parent's id inline 16.
        #expect(MemoryLayout<TaskItem>.stride == 168)
        #expect(MemoryLayout<FieldClocks.Inline>.size == 60)
        #expect(MemoryLayout<DueDate>.size == 8)
    }

    @Test func everyFormReadsBackAsItWasWritten() {
        let forms: [(DueDate, String, String?)] = [
            (.date(year: 2026, month: 12, day: 1)!, "2026-12-01", nil),
            (.time(year: 2026, month: 12, day: 1, hour: 8, minute: 30, zone: .utc)!, "2026-12-01T08:30:00Z", nil),
            (.time(year: 2026, month: 12, day: 1, hour: 9, minute: 30, zone: .floating)!, "2026-12-01T09:30:00", nil),
            (.time(year: 2026, month: 12, day: 1, hour: 9, minute: 30, zone: .named("Europe/Berlin"))!, "2026-12-01T09:30:00+01:00", "Europe/Berlin"),
            (
                .time(year: 2026, month: 7, day: 1, hour: 9, minute: 30, zone: .named("America/New_York"))!, "2026-07-01T09:30:00-04:00",
                "America/New_York"
            ),
            // A zone this system does not know keeps its name and clock reading (offset: local's).
            (
                .time(year: 2026, month: 12, day: 1, hour: 9, minute: 30, zone: .named("W. Europe Standard Time"))!, "2026-12-01T09:30:00+00:00",
                "W. Europe Standard Time"
            ),
        ]
        for (due, text, zone) in forms {
            #expect(due.text(local: DueDate.utc) == text)
            #expect(due.zoneName == zone)
            #expect(DueDate(text: text, zone: zone) == due)
        }
        // An offset without a zone name is the instant.
        #expect(DueDate(text: "2026-12-01T09:30:00+01:00") == .time(year: 2026, month: 12, day: 1, hour: 8, minute: 30, zone: .utc))
        for bad in ["2026-12-1", "2026-13-01", "2026-12-01T25:00:00Z", "2026-12-01T09:30:00+1:00", "2026-12-01Z", "10000-01-01"] {
            #expect(DueDate(text: bad) == nil)
        }
        #expect(DueDate(text: "2026-12-01", zone: "Europe/Berlin") == nil)
    }

    @Test("a due date written as bytes is its text, across the years and every kind")
    func writtenAsBytesIsItsText() {
        var generator = SeededGenerator(seed: 2026)
        var dues: [DueDate] = [.date(year: 0, month: 1, day: 1)!, .date(year: 9999, month: 12, day: 31)!]
        dues.append(.time(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, zone: .utc)!)
        dues.append(.time(year: 0, month: 1, day: 1, hour: 0, minute: 0, zone: .floating)!)
        dues.append(.time(year: 2026, month: 12, day: 1, hour: 9, minute: 30, zone: .named("Europe/Berlin"))!)
        for _ in 0..<3000 {
            let year = Int.random(in: 0...9999, using: &generator)
            let (month, day) = (Int.random(in: 1...12, using: &generator), Int.random(in: 1...28, using: &generator))
            let hour = Int.random(in: 0...23, using: &generator)
            let (minute, second) = (Int.random(in: 0...59, using: &generator), Int.random(in: 0...59, using: &generator))
            // Offsets behind UTC, by half hours, and a zone name no zone database knows (its offset is the local zone's).
            let zones: [DueDate.Zone] = [.utc, .floating, .named("Asia/Tokyo"), .named("America/St_Johns"), .named("Mars/Olympus_Mons")]
            let zone = zones[Int.random(in: 0..<zones.count, using: &generator)]
            dues.append(.date(year: year, month: month, day: day)!)
            dues.append(.time(year: year, month: month, day: day, hour: hour, minute: minute, second: second, zone: zone)!)
        }
        for due in dues {
            var writer = JSONWriter()
            writer.due(due)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"" + due.text() + "\"", "\(due.text())")
        }
    }

    @Test func nearDatesReadRelativeAndPastOnesAreOverdue() {
        let now = DueInputTests.at("2026-11-25T10:00:00", in: Self.berlin)  // a Wednesday
        let dates = DueDisplay(now: now, local: Self.berlin)
        func day(_ d: Int, _ m: Int = 11) -> DueDate { .date(year: 2026, month: m, day: d)! }
        #expect(dates.text(day(25)) == "today")
        #expect(dates.text(day(26)) == "tomorrow")
        #expect(dates.text(day(27)) == "Fri")
        #expect(dates.text(day(1, 12)) == "Tue")
        #expect(dates.text(day(2, 12)) == "2026-12-02")
        #expect(dates.text(day(24)) == "2026-11-24")
        #expect(DueDisplay(now: now, local: Self.berlin, format: .dmy).text(day(2, 12)) == "02.12.2026")
        #expect(DueDisplay(now: now, local: Self.berlin, format: .mdy).text(day(2, 12)) == "12/02/2026")
        #expect(dates.standing(day(24)) == .overdue)
        #expect(dates.standing(day(25)) == .today)
        #expect(dates.standing(day(26)) == .later)
        let earlier = DueDate.time(year: 2026, month: 11, day: 25, hour: 9, minute: 0, zone: .named("Europe/Berlin"))!
        let later = DueDate.time(year: 2026, month: 11, day: 25, hour: 8, minute: 0, zone: .named("America/New_York"))!
        #expect(dates.standing(earlier) == .overdue)
        #expect(dates.text(earlier) == "today 09:00")
        // 08:00 in New York is 14:00 here.
        #expect(dates.standing(later) == .today)
        #expect(dates.text(later) == "today 14:00")
        // What went overdue this morning sorts before what is due today, all day (issue 40);
        // yesterday's whole day before both.
        #expect(day(24).sortKey(local: Self.berlin) < earlier.sortKey(local: Self.berlin))
        #expect(earlier.sortKey(local: Self.berlin) < later.sortKey(local: Self.berlin))
        #expect(later.sortKey(local: Self.berlin) < day(25).sortKey(local: Self.berlin))
    }

    @Test func theStoreKeepsDueDatesAndTheirClocksAndOldStoresReadAsBefore() throws {
        var list = Fixtures.sampleList()
        let berlinTime = DueDate.time(year: 2026, month: 12, day: 1, hour: 9, minute: 30, zone: .named("Europe/Berlin"))!
        list.apply(list.dating(at: 0, to: .date(year: 2026, month: 12, day: 1))!, clock: Clock(milliseconds: 9_000))
        list.apply(list.dating(at: 1, to: berlinTime)!, clock: Clock(milliseconds: 9_001))
        let header = SnapshotHeader(generation: .random(), clock: Clock(milliseconds: 9_001), list: list)
        let bytes = StoreDocument.encode(list, header: header)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""due": "2026-12-01T09:30:00+01:00",\#n      "dueZone": "Europe/Berlin""#))
        // The fast reader and the strict one agree.
        let fast = try StoreDocument.decode(bytes).list
        #expect(fast.shown == list.shown)
        #expect(fast.all.map(\.clocks) == list.all.map(\.clocks))
        #expect(fast[1].due == berlinTime)
        // Five stamps only where the due date was set after the add.
        #expect(text.components(separatedBy: "\n").filter { $0.contains("\"clock\": \"") && $0.split(separator: " ").count == 6 }.count == 2)
        // A store from before due dates: no "due", four stamps; the due stamp is the add's.
        let old = StoreDocumentTests.document(
            [
                StoreDocumentTests.taskJSON(1, ["order": "\"a0\"", "clock": "\"300.0 200.0 100.0 400.0\""])
            ], version: "2")
        let task = try StoreDocument.decode(old).list[0]
        #expect(task.due == nil)
        #expect(task.clocks[.due] == Clock(milliseconds: 100))
        #expect(StoreDocument.encode(TaskList(keyed: [task], deleted: [])).count > 0)
        let rewritten = String(decoding: StoreDocument.encode(TaskList(keyed: [task], deleted: []), header: header), as: UTF8.self)
        #expect(rewritten.contains(#""clock": "300.0 200.0 100.0 400.0""#))
        #expect(!rewritten.contains("due"))
    }

    @Test func aDueChangeMergesByItsOwnClockAndUndoes() {
        var list = TaskList([Fixtures.task("Pay rent", id: 1)])
        let first = list.dating(at: 0, to: .date(year: 2026, month: 12, day: 1))!
        list.apply(first, clock: Clock(milliseconds: 5_000))
        // A caption changed later elsewhere does not take the due date with it.
        list.apply(list.renaming(at: 0, to: "Pay the rent")!, clock: Clock(milliseconds: 6_000))
        let stale = TaskChange.set(list[0].id, TaskFields(due: .some(.date(year: 2027, month: 1, day: 1))), was: TaskFields(due: .some(nil)))
        list.apply(stale, clock: Clock(milliseconds: 4_000))
        #expect(list[0].due == .date(year: 2026, month: 12, day: 1))
        #expect(list[0].caption == "Pay the rent")
        list.apply(first.inverse, clock: Clock(milliseconds: 7_000))
        #expect(list[0].due == nil)
        #expect(list[0].caption == "Pay the rent")
    }

    @Test func theLogRecordsSettingAndClearingAndReadsThemBack() throws {
        let id = Fixtures.id(1)
        let berlin = DueDate.time(year: 2026, month: 12, day: 1, hour: 9, minute: 30, zone: .named("Europe/Berlin"))!
        let record = LogRecord(
            generation: .random(), clock: Clock(milliseconds: 7), what: "Due",
            changes: [
                .set(id, TaskFields(due: .some(berlin)), was: TaskFields(due: .some(nil))),
                .set(id, TaskFields(due: .some(nil)), was: TaskFields(due: .some(.date(year: 2026, month: 12, day: 2)))),
            ])
        let line = ChangeLog.encode(record)
        #expect(
            String(decoding: line, as: UTF8.self).contains(
                #""set": {"due": "2026-12-01T09:30:00+01:00", "dueZone": "Europe/Berlin"}, "was": {"due": null}"#))
        #expect(try ChangeLog.decodeRecord(Array(line.dropLast())).get() == record)
    }

    @Test func anImportChangesADueDateOnlyWhereTheFileChangedIt() throws {
        let rent = TaskItem(
            id: Fixtures.id(1), caption: "Pay rent", createdAt: Date(timeIntervalSince1970: 1_000), due: .date(year: 2026, month: 12, day: 1))
        var list = TaskList([rent])
        var base = ImportBase()
        base.record(ImportBase.Said([rent]))
        // Changed here since the file was written: the unchanged file leaves it.
        list.apply(list.dating(at: 0, to: .date(year: 2026, month: 12, day: 5))!, clock: Clock(milliseconds: 5_000_000))
        let unchanged = ImportBatch(format: .hottask, tasks: [rent], skipped: 0, losses: ImportLosses())
        #expect(list.importing(unchanged, base: base, dates: .runningNow).changes.isEmpty)
        // Changed in the file only: it wins.
        var inFile = rent
        inFile.due = .date(year: 2026, month: 12, day: 9)
        let list2 = TaskList([rent])
        let changes = list2.importing(
            ImportBatch(format: .hottask, tasks: [inFile], skipped: 0, losses: ImportLosses()), base: base, dates: .runningNow
        ).changes
        #expect(changes == [.set(rent.id, TaskFields(due: .some(inFile.due)), was: TaskFields(due: .some(rent.due)))])
    }
}
