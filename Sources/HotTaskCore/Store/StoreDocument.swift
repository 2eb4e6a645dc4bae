import Dispatch
import FoundationEssentials
import Glibc

/// The store file's format: `{"version": 2, "generation": ..., "tasks": [...], "deleted": [...]}`,
/// tasks in display order. Version 1 stores (no order keys, clocks or tombstones) are read.
public enum StoreDocument {
    static let version = 2

    // MARK: Writing

    /// An export (the tasks only) as pretty-printed UTF-8 JSON: `--list --json`, the rescue file.
    public static func encode(_ list: TaskList) -> [UInt8] {
        encode(list, header: nil)
    }

    /// The snapshot as pretty-printed UTF-8 JSON with a fixed key order and a final newline.
    /// Without a header it is an export: the tasks only.
    static func encode(_ list: TaskList, header: SnapshotHeader?, activity: ActivityHistory = ActivityHistory()) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = write(list, header: header, activity: activity) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// An export (no header) in pieces of about `pieceSize` bytes, each given to `emit` as soon
    /// as it is full: `--export -` never holds the whole document (30 MB at 100,000 tasks).
    /// The pieces together are exactly `encode(list)`.
    public static func encode(_ list: TaskList, pieceSize: Int = 1 << 18, emit: ([UInt8]) -> Void) {
        _ = write(list, header: nil, pieceSize: pieceSize, emit: emit)
    }

    /// Whether `write` encodes on two threads unless told: a list large enough to pay for it.
    static func twoThreads(for list: TaskList) -> Bool {
        twoThreads(count: list.count)
    }

    /// Whether work over `count` tasks pays for a second thread.
    static func twoThreads(count: Int) -> Bool {
        count >= 20_000 && ProcessInfo.processInfo.activeProcessorCount > 1
    }

    /// The document in pieces of about `pieceSize` bytes, given to `emit` in order, and where
    /// each task's object lies in it (a snapshot's index; empty for an export). A compaction
    /// streams the pieces to disk, so the 36 MB of a 100,000-task snapshot are never held.
    ///
    /// The tasks are written in runs of about a piece each. On two threads, the other writes
    /// every second run, at most two ahead, and all go out in order: every object is exactly
    /// as one thread writes it, and at most three runs are held.
    static func write(
        _ list: TaskList, header: SnapshotHeader?, activity: ActivityHistory = ActivityHistory(), pieceSize: Int = 1 << 20,
        twoThreads: Bool? = nil, emit: ([UInt8]) -> Void
    ) -> [SnapshotIndex.Entry] {
        var entries: [SnapshotIndex.Entry] = []
        if header != nil { entries.reserveCapacity(list.count) }
        var head = JSONWriter(capacity: 512)
        head.raw("{")
        head.key("version", indent: 2, first: true)
        head.raw(String(version))
        if let header {
            head.key("generation", indent: 2, first: false)
            head.string(header.generation.text)
            head.key("clock", indent: 2, first: false)
            head.string(header.clock.description)
            head.key("count", indent: 2, first: false)
            head.raw(String(header.count))
            head.key("top", indent: 2, first: false)
            head.raw("{")
            for section in Section.allCases {
                if section != .priority { head.raw(", ") }
                head.string(section.rawValue)
                head.raw(": ")
                if let key = header.top[section] { head.string(key.text) } else { head.raw("null") }
            }
            head.raw("}")
            if let folds = header.folds {
                head.key("follows", indent: 2, first: false)
                if let generation = folds.generation { head.string(generation.text) } else { head.raw("null") }
                head.key("folded", indent: 2, first: false)
                head.raw(String(folds.records))
            }
            if header.lists != .initial {
                head.key("lists", indent: 2, first: false)
                head.strings(header.lists.names)
            }
        }
        head.key("tasks", indent: 2, first: false)
        head.raw("[")
        var written = head.count
        emit(head.bytes)

        // An export names each task's list once the store has more than one (a one-list store's
        // export is as it was before lists); a snapshot stores it only for the other lists.
        let listNames = header == nil && list.hasSeveralLists ? list.lists : nil
        let used = (twoThreads ?? Self.twoThreads(for: list)) ? 2 : 1
        // Tasks per run: a piece's worth at about 380 bytes a task in a snapshot, 280 in an export.
        let runLength = max(1, pieceSize / (header == nil ? 280 : 380))
        let count = list.count
        let runCount = (count + runLength - 1) / runLength
        @Sendable func range(_ run: Int) -> Range<Int> { run * runLength..<min((run + 1) * runLength, count) }
        func newRun() -> TaskRun { TaskRun(capacity: pieceSize, stamped: header != nil, listNames: listNames) }
        func send(_ run: TaskRun) {
            for entry in run.entries {
                entries.append(SnapshotIndex.Entry(id: entry.id, offset: written + entry.offset, length: entry.length))
            }
            written += run.writer.count
            run.writer.withText(emit)
            run.clear()
        }
        let own = newRun()
        if used == 1 || runCount < 2 {
            for run in 0..<runCount {
                own.write(list, range(run))
                send(own)
            }
        } else {
            // The other thread writes the odd runs, up to two ahead, while this one writes the
            // even runs and sends every run out in order: neither waits for the other's run to
            // be sent (a thread for each pair of runs, waiting for both, left a fifth of the
            // two cores idle).
            let ahead = [newRun(), newRun()]
            let done = DispatchSemaphore(value: 0)
            let free = DispatchSemaphore(value: ahead.count)
            let other = DispatchGroup()
            OwnThread.run(in: other) {
                for (turn, run) in stride(from: 1, to: runCount, by: 2).enumerated() {
                    free.wait()
                    ahead[turn % ahead.count].write(list, range(run))
                    done.signal()
                }
            }
            for run in 0..<runCount {
                if run % 2 == 0 {
                    own.write(list, range(run))
                    send(own)
                } else {
                    done.wait()
                    send(ahead[(run / 2) % ahead.count])
                    free.signal()
                }
            }
            other.wait()
        }

        var tail = JSONWriter(capacity: 512)
        if !list.isEmpty { tail.newline(indent: 2) }
        tail.raw("]")
        if header != nil {
            tail.key("deleted", indent: 2, first: false)
            // By id as its text sorts, compared as numbers (no String per comparison).
            let tombstones = list.deleted.values.sorted { UUIDBytes.sortKey($0.task.id) < UUIDBytes.sortKey($1.task.id) }
            writeArray(tombstones, to: &tail) { write($0.task, to: &$1, deletedAt: $0.clock) }
            // Only when there is any: a store without history is byte for byte what it was before it.
            if !activity.isEmpty {
                tail.key("history", indent: 2, first: false)
                tail.raw(#"{"all": "#)
                tail.string(activity.text)
                let steps = activity.stepsText
                if !steps.isEmpty {
                    tail.raw(#", "steps": "#)
                    tail.string(steps)
                }
                for (key, text) in [(#", "occurrences": "#, activity.occurrencesText), (#", "takenBack": "#, activity.addsTakenBackText)]
                where !text.isEmpty {
                    tail.raw(key)
                    tail.string(text)
                }
                tail.raw("}")
            }
        }
        tail.newline(indent: 0)
        tail.raw("}\n")
        emit(tail.bytes)
        return entries
    }

    /// One run of consecutive tasks, each after its "," (but the first task's) and line break,
    /// as `writeArray` writes them; offsets in `entries` are from the run's start. A class: the
    /// two threads each fill their own.
    // Unchecked: a run is written by one thread at a time, and handed to the other only through
    // a semaphore (or the group's wait), which orders the writes before the reads.
    private final class TaskRun: @unchecked Sendable {
        var writer: JSONWriter
        var entries: [SnapshotIndex.Entry] = []
        let stamped: Bool
        /// An export's lists, when it names each task's (see `StoreDocument.write`).
        let listNames: ListNames?

        init(capacity: Int, stamped: Bool, listNames: ListNames?) {
            writer = JSONWriter(capacity: capacity + 16 << 10)
            self.stamped = stamped
            self.listNames = listNames
        }

        func write(_ list: TaskList, _ positions: Range<Int>) {
            // Written through locals, swapped in and out: each use of a class's property is
            // checked for exclusive access at run time, several times a task.
            var out = JSONWriter()
            var made: [SnapshotIndex.Entry] = []
            swap(&out, &writer)
            swap(&made, &entries)
            defer {
                swap(&out, &writer)
                swap(&made, &entries)
            }
            // Read in place from the sections: a copy of each task (`list[position]`) retained
            // and released its caption and box, a tenth of the encoding.
            let split = list.priority.count
            list.priority.withUnsafeBufferPointer { priority in
                list.bonus.withUnsafeBufferPointer { bonus in
                    for position in positions {
                        if position > 0 { out.raw(",") }
                        out.newline(indent: 4)
                        let offset = out.count
                        let tasks = position < split ? priority : bonus
                        let at = position < split ? position : position - split
                        StoreDocument.write(tasks[at], to: &out, stamped: stamped, listNames: listNames)
                        if stamped { made.append(SnapshotIndex.Entry(id: tasks[at].id, offset: offset, length: out.count - offset)) }
                    }
                }
            }
        }

        /// Empty again, keeping its room: the next run reuses it.
        func clear() {
            writer.clear()
            entries.removeAll(keepingCapacity: true)
        }
    }

    private static func writeArray<Items: Sequence>(_ items: Items, to writer: inout JSONWriter, _ body: (Items.Element, inout JSONWriter) -> Void) {
        writer.raw("[")
        var empty = true
        for item in items {
            if !empty { writer.raw(",") }
            empty = false
            writer.newline(indent: 4)
            body(item, &writer)
        }
        if !empty { writer.newline(indent: 2) }
        writer.raw("]")
    }

    /// Writes one task object; `compact` puts it on one line (for the change log). Exports leave
    /// out the order key and stamps (`stamped` false): their order is the array's, and stamps
    /// mean something only in the store that made them. The fields come from the field table,
    /// each where its `placement` says.
    static func write(
        _ task: TaskItem, to writer: inout JSONWriter, compact: Bool = false, stamped: Bool = true, deletedAt: Clock? = nil,
        listNames: ListNames? = nil
    ) {
        writer.compact = compact
        writer.raw("{")
        writer.key("id", indent: 6, first: true)
        writer.uuid(task.id)
        let name = { (writer: inout JSONWriter, key: StaticString) in writer.key(key, indent: 6, first: false) }
        for field in TaskField.writtenBeforeDates {
            field.write(field.value(of: task), to: &writer, name: name)
        }
        writer.key("createdAt", indent: 6, first: false)
        let created = writer.count
        writer.date(task.createdAt)
        let createdLength = writer.count - created
        writer.key("completedAt", indent: 6, first: false)
        if let completedAt = task.completedAt {
            writer.date(completedAt)
        } else {
            writer.raw("null")
        }
        writer.key("modifiedAt", indent: 6, first: false)
        // Most tasks were never changed: the same text again, copied, not made.
        if task.modifiedAt == task.createdAt {
            writer.repeating(from: created, count: createdLength)
        } else {
            writer.date(task.modifiedAt)
        }
        // Only when set: a store without due dates is byte for byte what it was before them.
        // A task without a box (most) has no note, tags, repeat or list to look at.
        let unboxed = task.boxed == nil
        for field in TaskField.writtenAfterDates {
            if field == .list, let listNames {
                field.write(.list(listNames.name(of: task.list)), to: &writer, name: name)
                continue
            }
            if unboxed, field.isBoxed, field != .parent { continue }  // a parent is kept inline
            let value = field.value(of: task)
            if !field.isUnset(value) { field.write(value, to: &writer, name: name) }
        }
        if stamped {
            for field in TaskField.writtenInSnapshotsOnly {
                field.write(field.value(of: task), to: &writer, name: name)
            }
            writer.key("clock", indent: 6, first: false)
            writeClockText(task.clocks, to: &writer)
        }
        if let deletedAt {
            writer.key("deletedClock", indent: 6, first: false)
            writer.string(deletedAt.description)
        }
        writer.newline(indent: 4)
        writer.raw("}")
        writer.compact = false
    }

    /// One stamp when all fields share it, else one per field in table order up to the last
    /// whose stamp is not the add's (see `FieldClocks.written`): a task whose due date was never
    /// set is written as before due dates (four stamps).
    static func clockText(_ clocks: FieldClocks) -> String {
        clocks.written.map(\.description).joined(separator: " ")
    }

    /// `clockText` as a JSON string, written straight into `writer` (no String per task).
    static func writeClockText(_ clocks: FieldClocks, to writer: inout JSONWriter) {
        writer.raw("\"")
        var first = true
        clocks.forEachWritten { clock in
            if !first { writer.raw(" ") }
            first = false
            writer.clock(clock)
        }
        writer.raw("\"")
    }

    static func clocks(from text: Substring) -> FieldClocks? {
        var text = text
        return text.withUTF8 { clocks(utf8: $0) }
    }

    /// `clocks(from:)` on UTF-8 bytes: one stamp, or one for each of the first fields in table
    /// order (at least the first-stamped ones), separated by single spaces.
    static func clocks(utf8 bytes: UnsafeBufferPointer<UInt8>) -> FieldClocks? {
        // Without an array: one was made and freed for every task read.
        var stamps = PerField<Clock>(repeating: .zero)
        var count = 0
        var start = 0
        for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: " ") {
            guard count < TaskField.allCases.count, let clock = Clock(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return nil }
            stamps[count] = clock
            count += 1
            start = end + 1
        }
        // Most tasks: one stamp for all, without the general form's lazy collection (which cost
        // as much again as parsing the stamp).
        if count == 1 { return FieldClocks(stamps[0]) }
        // A copy for the closure: the `var` it captured was put in a box for every task read.
        let read = stamps
        return FieldClocks(stamps: read.indices.prefix(count).lazy.map { read[$0] })
    }
}

extension StoreDocument {
    /// Why an export file could not be written.
    struct ExportFailure: Error, Sendable {
        let reason: String
    }
}
