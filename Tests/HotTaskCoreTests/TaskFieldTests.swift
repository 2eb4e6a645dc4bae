import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The field table (`TaskField`): every layer loops over it, so a field added there is stored,
/// logged, merged and based like the others; stores, logs and bases written before it read.
@Suite("The field table")
struct TaskFieldTests {
    @Test func theInlineSizesAreTheTablesCounts() {
        #expect(PerField<Int>(repeating: 0).count == TaskField.allCases.count)
        #expect(PerInlineField<Int>(repeating: 0).count == TaskField.allCases.count { !$0.isBoxed })
        #expect(PerBoxedField<Int>(repeating: 0).count == TaskField.allCases.count { $0.isBoxed })
        // Boxed fields come after the inline ones (their stamps are the last in the text).
        let afterFirstBoxed = TaskField.allCases.drop { !$0.isBoxed }
        #expect(afterFirstBoxed.allSatisfy { $0.isBoxed })
        // A task without a note pays eight bytes for the box it does not have, and sixteen for
        // a parent's id.
        #expect(MemoryLayout<TaskItem>.stride == 168)
    }

    /// The fast reader finds a field by its key's length and first byte: no two fields may share
    /// them, and a key that only looks like one (same length and first byte) is no field.
    @Test func everyKeyFindsItsFieldAndNoOtherKeyDoes() {
        func field(_ key: String) -> TaskField? {
            Array(key.utf8).withUnsafeBufferPointer { TaskField(utf8: $0) }
        }
        #expect(TaskField.allCases.map { field($0.key) } == TaskField.allCases)
        let slots = TaskField.byLengthAndFirstByte.filter { $0 >= 0 }
        #expect(slots.count == TaskField.allCases.count, "two fields share a slot")
        for key in ["", "id", "captioN", "parents", "pArent", "dueZone", "createdAt", "clock", "l", "n", "repeatRule", "parentparentparent"] {
            #expect(field(key) == nil, "\(key)")
        }
    }

    @Test func everyFieldsValueReadsBackAsItWasWrittenInTheStoreTheLogAndTheSyncBase() throws {
        var task = Fixtures.task("Pay rent", id: 1, completed: true, hours: 1)
        task.due = DueDate(text: "2026-12-01T09:30", zone: "Europe/Berlin")
        task.note = "Line one\n\tindented\nlast"
        task.repeatRule = RepeatRule(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=5")!
        task.list = "Work"
        task.parent = Fixtures.id(2)
        let list = TaskList([task])
        let header = SnapshotHeader(generation: .random(), clock: Clock(milliseconds: 9_000), list: list)
        let read = try StoreDocument.decode(StoreDocument.encode(list, header: header)).list[0]
        let strict = try StoreDocument.decodeStrictly(StoreDocument.encode(list, header: header)).list[0]
        for field in TaskField.allCases {
            #expect(field.value(of: read) == field.value(of: list[0]), "\(field)")
            #expect(field.value(of: strict) == field.value(of: list[0]), "\(field)")
        }
        // A log record that sets every field, and one that clears what can be cleared.
        let all = TaskFields(allOf: read)
        var cleared = TaskFields()
        cleared.due = .some(nil)
        cleared.note = ""
        cleared.repeatRule = RepeatRule.none
        cleared.parent = .some(nil)
        let record = LogRecord(
            generation: .random(), clock: Clock(milliseconds: 1), what: "x", changes: [.set(task.id, all, was: cleared)], sequence: 1)
        let line = ChangeLog.encode(record)
        let decoded = try ChangeLog.decodeRecord(Array(line.dropLast())).get()
        #expect(decoded.changes == record.changes)
        // The sync base keeps each shared field's value.
        let entry = SyncBase.Entry(
            uid: "u", href: "/u.ics", etag: nil, fields: SharedFields(read), orderKey: "a0", clocks: "1.0", calendar: "")
        let again = try JSONDecoder().decode(SyncBase.Entry.self, from: JSONEncoder().encode(entry))
        #expect(again == entry)
        for field in TaskField.shared { #expect(again.base(field) == field.value(of: read), "\(field)") }
    }

    /// The fast store reader reads each field of the table straight into the task (not through
    /// `FieldValue`): every field must reach the task as the strict reader reads it, alone and
    /// with all the others. A field added to the table must be set in `full` below (the first
    /// check fails until it is), and then fails here until the fast reader reads it.
    @Test func theFastStoreReaderReadsEveryFieldOfTheTableAsTheStrictOneDoes() throws {
        var full = Fixtures.task("Call Mum", id: 1, section: .bonus, completed: true, hours: 2, modifiedHours: 3)
        full.due = try #require(DueDate(text: "2026-12-01T09:30:00+01:00", zone: "Europe/Berlin"))
        full.note = "Line one\n\tindented"
        full.tags = ["home", "@phone"]
        full.repeatRule = RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO")!
        full.list = "Errands and shopping"
        full.parent = Fixtures.id(2)
        full.order = try #require(OrderKey("b00"))
        let blank = TaskItem(id: full.id, caption: "", createdAt: full.createdAt)
        for field in TaskField.allCases {
            #expect(field.value(of: full) != field.value(of: blank), "\(field) is not set in the fixture")
        }
        // Each field set alone (the others as a new task has them), then all at once.
        var tasks: [TaskItem] = []
        for (number, field) in TaskField.allCases.enumerated() {
            var one = Fixtures.task("", id: 10 + number, hours: 1)
            field.set(field.value(of: full), on: &one, completedAt: full.completedAt, now: Date())
            tasks.append(one)
        }
        var dayOnly = Fixtures.task("Dentist", id: 30)
        dayOnly.due = DueDate(text: "2026-12-01", zone: nil)
        // A rule counted from the day it is done (todo.txt's rec:1w) is read fast too.
        var afterDone = Fixtures.task("Water plants", id: 31)
        afterDone.repeatRule = RepeatRule(rrule: "FREQ=WEEKLY")!.counting(afterDone: true)
        tasks += [full, dayOnly, afterDone]
        let list = TaskList(keyed: tasks)
        let document = StoreDocument.encode(list, header: SnapshotHeader(generation: .random(), clock: Clock(milliseconds: 9_000), list: list))
        let fast = try #require(JSONParser.decodeStoreFast(document), "the fast reader gave up")
        let strict = try StoreDocument.decodeStrictly(document)
        #expect(fast.list == strict.list)
        #expect(fast.list == list)
        for (read, written) in zip(fast.list.all, list.all) {
            #expect(read.clocks == written.clocks && read.completedAt == written.completedAt && read.modifiedAt == written.modifiedAt)
            for field in TaskField.allCases { #expect(field.value(of: read) == field.value(of: written), "\(field)") }
        }
    }

    @Test func aTaskWithoutANoteIsWrittenAsBeforeNotesAndAnOlderStoreReads() throws {
        // Written by the HotTask before notes: four stamps, no note.
        let old = StoreDocumentTests.document(
            [StoreDocumentTests.taskJSON(1, ["order": "\"a0\"", "clock": "\"300.0 200.0 100.0 400.0\""])], version: "2")
        let task = try StoreDocument.decode(old).list[0]
        #expect(task.note == "")
        #expect(task.clocks[.note] == Clock(milliseconds: 100), "the add's stamp")
        let header = SnapshotHeader(generation: .random(), clock: Clock(milliseconds: 9_001), list: TaskList(keyed: [task]))
        let rewritten = String(decoding: StoreDocument.encode(TaskList(keyed: [task]), header: header), as: UTF8.self)
        #expect(rewritten.contains(#""clock": "300.0 200.0 100.0 400.0""#))
        #expect(!rewritten.contains("note"))
    }

    @Test func aNoteSetLaterHasItsOwnStampAndMergesApartFromTheCaption() throws {
        var list = TaskList([Fixtures.task("Pay rent", id: 1)])
        list.apply(.add(list[0]), clock: Clock(milliseconds: 1_000), force: true)
        // Here: the note, later than the caption changed elsewhere; they arrive in either order.
        let note = try #require(list.noting(at: 0, to: "Landlord: 555-0100"))
        let rename = try #require(list.renaming(at: 0, to: "Pay the rent"))
        var first = list
        first.apply(note, clock: Clock(milliseconds: 3_000))
        first.apply(rename, clock: Clock(milliseconds: 2_000))
        var second = list
        second.apply(rename, clock: Clock(milliseconds: 2_000))
        second.apply(note, clock: Clock(milliseconds: 3_000))
        #expect(first == second)
        #expect(first[0].caption == "Pay the rent" && first[0].note == "Landlord: 555-0100")
        // The stamps: caption, section, completed, order, due (the add's), note.
        #expect(StoreDocument.clockText(first[0].clocks) == "2000.0 1000.0 1000.0 1000.0 1000.0 3000.0")
        // An older note change loses to the newer one; undo takes the note back.
        var older = first
        older.apply(.set(list[0].id, TaskFields(note: "stale"), was: TaskFields(note: "")), clock: Clock(milliseconds: 2_500))
        #expect(older[0].note == "Landlord: 555-0100")
        older.apply(note.inverse, clock: Clock(milliseconds: 4_000))
        #expect(older[0].note == "")
        // The box goes with the note when its stamp is no longer the add's... and stays while it is not.
        #expect(StoreDocument.clockText(older[0].clocks).hasSuffix(" 4000.0"))
    }

    @Test func boxedStampsStayWhenEveryOtherFieldChangesLater() {
        var task = Fixtures.task("Pay rent", id: 1)
        task.clocks = FieldClocks(Clock(milliseconds: 100))
        var clocks = task.clocks
        for field in TaskField.firstStamped { clocks[field] = Clock(milliseconds: 500) }
        task.clocks = clocks
        // The note was never set: its stamp is still the add's, though the four moved on.
        #expect(task.clocks[.note] == Clock(milliseconds: 100))
        #expect(task.clocks[.due] == Clock(milliseconds: 100))
        let text = StoreDocument.clockText(task.clocks)
        #expect(text == "500.0 500.0 500.0 500.0 100.0 100.0 100.0 100.0 100.0 100.0")
        #expect(StoreDocument.clocks(from: Substring(text)) == task.clocks)
    }

    @Test func anImportBaseWrittenBeforeDueDatesOrNotesReadsAndItsLinesGrow() throws {
        let folder = TemporaryFolder()
        let store = TaskStore(path: folder.storePath)
        var task = Fixtures.task("Pay rent", id: 1)
        task.note = "Landlord"
        let id = task.id.uuidString.lowercased()
        let captionHash = String(ImportBase.hash("Pay rent"), radix: 16).leftPadded(16)
        // Lines of 56 bytes (before due dates) and 73 (before notes).
        try (id + " " + captionHash + " p0\n").write(toFile: ImportBase.path(besides: store), atomically: true, encoding: .utf8)
        var base = try ImportBase.load(besides: store)
        let old = try #require(base[task.id])
        #expect(old[.caption] == ImportBase.hash("Pay rent"))
        #expect(old[.due] == nil, "unknown: the later change wins")
        #expect(old[.note] == ImportBase.fingerprint(.note("")), "a base from before notes agreed on none")
        base.record(ImportBase.Said([task]))
        try base.save(besides: store)
        let lines = try String(contentsOfFile: ImportBase.path(besides: store), encoding: .utf8)
        // Caption, flags, due, note, tags, repeat, parent.
        #expect(lines.utf8.count == 36 + 17 + 3 + 17 + 17 + 17 + 17 + 17 + 1)
        #expect(try ImportBase.load(besides: store)[task.id] == ImportBase.Entry(task))
    }

    /// The import base's fingerprints and its writer are specialised per field (an export records
    /// every task): each must give what the general form gives, for every field of the table.
    @Test func eachFieldsFastFingerprintAndBaseLineAreTheGeneralOnes() throws {
        var tasks = [
            Fixtures.task("Pay rent", id: 1), Fixtures.task("", id: 2, section: .bonus, completed: true),
            Fixtures.task("Zwölf Äpfel ☃︎\tund\nmehr", id: 3, completed: true),
        ]
        var full = Fixtures.task("Call Mum", id: 4, section: .bonus)
        full.due = DueDate(text: "2026-12-01T09:30", zone: "Europe/Berlin")
        full.note = "Line one\nLine two"
        full.tags = ["home", "@phone"]
        full.repeatRule = RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO")!
        full.list = "Errands and shopping"
        full.parent = Fixtures.id(2)
        tasks.append(full)
        // Every due date's key hashed without its text (`baseKeyHash`): days, times in UTC and
        // floating, and times in named zones (ahead of UTC and behind it, by half hours), the key
        // then holding the offset and the name.
        let plain = ["2026-12-01", "0007-03-09", "9999-12-31", "1969-07-20", "2026-12-01T08:30:00Z", "0000-01-01T00:00:00", "9999-12-31T23:59:59Z"]
        let named = [
            ("2026-07-01T09:30:00", "Europe/Berlin", "2026-07-01T09:30:00+02:00 Europe/Berlin"),
            ("2026-12-01T23:15:00", "America/St_Johns", "2026-12-01T23:15:00-03:30 America/St_Johns"),
        ]
        for (number, (text, zone, key)) in (plain.map { ($0, nil as String?, $0) } + named).enumerated() {
            var dated = Fixtures.task("Dentist", id: 5 + number)
            dated.due = try #require(DueDate(text: text, zone: zone))
            #expect(dated.due?.baseKeyHash == ImportBase.hash(key))
            #expect(DueDate.baseKey(dated.due) == key)
            tasks.append(dated)
        }
        for task in tasks {
            for field in TaskField.shared {
                let print = ImportBase.fingerprint(field.value(of: task))
                #expect(field.fingerprint(of: task) == print, "\(field) of \(task.caption)")
                var line = [UInt8](repeating: 0, count: field.baseLineWidth)
                let written = line.withUnsafeMutableBufferPointer { field.writeBaseLine(print, to: $0.baseAddress!) }
                let read = line.withUnsafeBufferPointer { field.readBaseLine($0, at: 0) }
                #expect(read?.print == print && read?.next == written, "\(field) of \(task.caption)")
            }
        }
    }

    @Test func theStoreWritesStampsAsTheirText() {
        var clocks = FieldClocks(Clock(milliseconds: 1_764_000_000_123, counter: 7))
        clocks[.due] = Clock(milliseconds: 1_764_000_000_999)
        for each in [FieldClocks(Clock(milliseconds: 0)), FieldClocks(Clock(milliseconds: 9, counter: 12)), clocks] {
            var writer = JSONWriter()
            StoreDocument.writeClockText(each, to: &writer)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"" + StoreDocument.clockText(each) + "\"")
        }
    }

    @Test func aSyncBaseWrittenBeforeNotesReads() throws {
        let json = #"""
            {"uid":"u","href":"/u.ics","caption":"Pay rent","section":"bonus","completed":false,"due":"","orderKey":"a0","clocks":"1.0","calendar":""}
            """#
        let entry = try JSONDecoder().decode(SyncBase.Entry.self, from: Data(json.utf8))
        #expect(entry.base(.caption) == .caption("Pay rent"))
        #expect(entry.base(.due) == .due(nil))
        #expect(entry.base(.note) == .note(""), "what HotTask had then: no note")
        let older =
            #"{"uid":"u","href":"/u.ics","caption":"Pay rent","section":"bonus","completed":true,"orderKey":"a0","clocks":"1.0","calendar":""}"#
        #expect(try JSONDecoder().decode(SyncBase.Entry.self, from: Data(older.utf8)).base(.due) == nil, "before due dates: unknown")
    }

    @Test(arguments: [
        ("  \n\nFirst line  \r\nsecond\tline\n\n\n", "First line\nsecond\tline"),
        ("a\u{1B}[31mred\u{1B}[0m\u{7}", "ared"),
        ("left\u{202E}right", "leftright"),
        ("one\rtwo\u{2028}three", "one\ntwo\nthree"),
        ("   \n\t\n", ""),
    ])
    func notesAreCleanedAsTheyComeIn(raw: String, clean: String) throws {
        #expect(try NoteRule.clean(raw) == clean)
        #expect(NoteRule.isAlreadyClean(clean))
        #expect(!NoteRule.isAlreadyClean(raw) || raw == clean)
    }

    @Test func aNoteHasALimitAndOneFromElsewhereIsCutThere() throws {
        let long = String(repeating: "word ", count: StoreLimits.noteBytes / 5 + 10)
        #expect(throws: NoteError.tooLong(bytes: long.trimmingCharacters(in: .whitespaces).utf8.count)) { try NoteRule.clean(long) }
        let (cut, wasCut) = NoteRule.cleanCutting(long)
        #expect(wasCut && cut.hasSuffix("word…") && cut.utf8.count <= StoreLimits.noteBytes)
        #expect(NoteRule.oneLine("a\nb\n\nc") == "a ↵ b ↵ c")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// Tags: the field, its rule, and `+word` in a new task's text.
@Suite("Tags")
struct TagTests {
    @Test(arguments: [
        ("Buy milk +shop", "Buy milk", ["shop"]),
        ("+work Call Bob +urgent", "Call Bob", ["work", "urgent"]),
        ("Fix C++ build", "Fix C++ build", []),
        ("Learn C++ +cpp", "Learn C++", ["cpp"]),
        ("Call +1 555 0100", "Call +1 555 0100", []),
        ("Call +44 20 7946 0958", "Call +44 20 7946 0958", []),
        ("Read https://example.com/a+b?q=c+d", "Read https://example.com/a+b?q=c+d", []),
        ("Open +https://example.com", "Open +https://example.com", []),
        ("Mail bob+tag@example.com", "Mail bob+tag@example.com", []),
        ("Mail +bob@example.com", "Mail +bob@example.com", []),
        ("Say \\+work out loud", "Say +work out loud", []),
        ("Plant roses +project:Home.Garden +v1.2", "Plant roses", ["project:Home.Garden", "v1.2"]),
        ("Café +crème +crème", "Café", ["crème"]),
        ("Sentence ends +done.", "Sentence ends +done.", []),
        ("+urgent", "+urgent", []),
        ("a+b +c", "a+b", ["c"]),
        ("x ++y", "x ++y", []),
        ("x +-y", "x +-y", []),
        ("x +", "x +", []),
    ])
    func plusWordsBecomeTagsWhereTheyStartAWord(text: String, caption: String, tags: [String]) {
        let taken = TagRule.takingTags(from: text)
        #expect(taken.caption == caption)
        #expect(taken.tags == tags)
        // A caption written for the editor reads back as itself.
        #expect(TagRule.takingTags(from: TagRule.escapingTagWords(caption)).caption == caption)
    }

    @Test func tagsAreCleanedAndLimited() throws {
        #expect(try TagRule.clean("+work") == "work")
        #expect(try TagRule.clean("  Grocery \t list ") == "Grocery list")
        #expect(try TagRule.clean("@phone") == "@phone")
        #expect(throws: TagError.empty) { try TagRule.clean(" + ") }
        #expect(throws: TagError.self) { try TagRule.clean(String(repeating: "x", count: StoreLimits.tagCharacters + 1)) }
        #expect(try TagRule.cleanAll(["a", "+a", "b"]) == ["a", "b"])
        #expect(throws: TagError.tooMany(StoreLimits.tagsPerTask + 1)) {
            try TagRule.cleanAll((0...StoreLimits.tagsPerTask).map { "t\($0)" })
        }
        #expect(TagRule.label("work") == "+work" && TagRule.label("@phone") == "@phone" && TagRule.label("a b") == "+\"a b\"")
    }

    @Test func tagsAreStoredLoggedAndMergedLikeEveryField() throws {
        var task = Fixtures.task("Pay rent", id: 1)
        task.tags = ["home", "@phone", "Grocery list"]
        let list = TaskList([task])
        let header = SnapshotHeader(generation: .random(), clock: Clock(milliseconds: 9_000), list: list)
        let bytes = StoreDocument.encode(list, header: header)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""tags": ["home", "@phone", "Grocery list"]"#))
        #expect(try StoreDocument.decode(bytes).list[0].tags == task.tags)
        #expect(try StoreDocument.decodeStrictly(bytes).list[0].tags == task.tags)
        // Tags and a note change apart from each other and from the caption.
        var merged = list
        merged.apply(try #require(ChangeRules.tag(list[0], adding: ["work"], removing: ["home"])), clock: Clock(milliseconds: 2_000))
        merged.apply(try #require(list.noting(at: 0, to: "n")), clock: Clock(milliseconds: 1_500))
        #expect(merged[0].tags == ["@phone", "Grocery list", "work"] && merged[0].note == "n")
        #expect(StoreDocument.clockText(merged[0].clocks).split(separator: " ").count == 7)
    }

    @Test func tagsChangedOnBothSidesOfASyncKeepWhatEachAddedAndTookAway() {
        let merged = ThreeWay.mergeElements(
            base: .tags(["home", "work", "later"]), local: .tags(["home", "work", "urgent"]), other: .tags(["work", "later", "phone"]))
        #expect(merged == .tags(["work", "phone", "urgent"]))
    }

    @Test func tabCompletesFromTheTagsInUseMostUsedFirst() {
        var tasks = (1...3).map { Fixtures.task("T\($0)", id: $0) }
        tasks[0].tags = ["work", "home"]
        tasks[1].tags = ["work"]
        tasks[2].tags = ["anywhere"]
        #expect(TaskList(tasks).tagsInUse == ["work", "anywhere", "home"])
    }
}
