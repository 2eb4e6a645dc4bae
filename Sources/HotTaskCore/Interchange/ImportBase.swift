import FoundationEssentials
import Glibc

/// What each task looked like in the last file it was imported from (`tasks.json.imported`):
/// the base of `--import`'s three-way merge. A re-import changes a field only when the file
/// changed it since, so a completion made here survives re-importing an export that was only
/// annotated there, or one whose dates lie in the future.
///
/// A caption is kept as a 64-bit hash (the merge only asks "same or not"), so the file stays
/// about 50 bytes a task. Losing the file costs nothing but the merge's memory: imports then
/// fall back to "the newer modifiedAt wins".
struct ImportBase: Sendable {
    struct Entry: Equatable, Sendable {
        /// Each shared field's fingerprint (`ImportBase.fingerprint`), by the field's place in
        /// the table; `unknown` for one the line did not hold (it was written before the field).
        private var prints: PerField<UInt64>

        static let unknown = UInt64.max

        init(_ task: TaskItem) {
            self.init(task, fields: TaskField.shared)
        }

        /// `fields`: `TaskField.shared`, taken once by a caller that makes many.
        init(_ task: TaskItem, fields: [TaskField]) {
            self = withUnsafePointer(to: task) { Entry(at: $0, fields: fields) }
        }

        /// The task where it lies, each field read there (`TaskField.fingerprint(at:)`).
        init(at task: UnsafePointer<TaskItem>, fields: [TaskField]) {
            prints = InlineArray(repeating: Self.unknown)
            for field in fields { prints[field.rawValue] = field.fingerprint(at: task) }
        }

        fileprivate init(prints: PerField<UInt64>) {
            self.prints = prints
        }

        /// The fingerprint of `field` as the file had it; nil when unknown (see `TaskField.inOldBases`).
        subscript(field: TaskField) -> UInt64? {
            let print = prints[field.rawValue]
            guard print == Self.unknown else { return print }
            return field.oldBasesMean.map(ImportBase.fingerprint)
        }

        static func == (a: Entry, b: Entry) -> Bool {
            a.prints.indices.allSatisfy { a.prints[$0] == b.prints[$0] }
        }

        /// True when `task` has exactly these fields.
        func matches(_ task: TaskItem) -> Bool { self == Entry(task) }
    }

    /// One per id, sorted by id (as `UUIDBytes.sortKey` orders them): 96 bytes a task, where a
    /// hash table would take about twice that.
    private var entries: [(id: UUID, entry: Entry)] = []

    init() {}

    subscript(id: UUID) -> Entry? {
        let at = UUIDBytes.firstPosition(notBefore: UUIDBytes.sortKey(id), count: entries.count) { UUIDBytes.sortKey(entries[$0].id) }
        return at < entries.count && entries[at].id == id ? entries[at].entry : nil
    }

    /// No file has said anything yet (or the base was lost).
    var isEmpty: Bool { entries.isEmpty }

    static func path(besides store: TaskStore) -> String { store.path + ".imported" }

    /// The base exists but cannot be read.
    struct Unreadable: Error, Sendable, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String {
            "the import base \(path) cannot be read: \(reason) (without it, the next import merges by date)"
        }
    }

    /// The base beside the store; empty when there is none. One that cannot be read (a named
    /// pipe, a link, no permission, no descriptor left) is an error: merging by date instead
    /// would overwrite what other files said. Its lines are read through a small window, never
    /// the whole file; a line that does not read is skipped.
    static func load(besides store: TaskStore) throws(Unreadable) -> ImportBase {
        let path = path(besides: store)
        let file: FileSystem.OpenFile
        do throws(FileSystem.Failure) {
            file = try FileSystem.OpenFile(path, sideFile: true)
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return ImportBase()
        } catch {
            throw Unreadable(path: path, reason: error.reason)
        }
        // It steers merges: one another user could write is not trusted.
        if let problem = FileSystem.untrusted(path) { throw Unreadable(path: path, reason: problem) }
        guard file.size > 0 else { return ImportBase() }
        var read: [(id: UUID, entry: Entry)] = []
        read.reserveCapacity(min(file.size / 57 + 1, StoreLimits.tasks))
        let window = FileWindow(file, at: 0, capacity: 1 << 16, limit: StoreLimits.readBytes)
        var start = 0
        // Within a line longer than the window: no line of ours, skipped to its end.
        var skipping = false
        while true {
            let bytes = window.bytes
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                if window.holdsTheRest {
                    // A last line without its line break, read as the old reader did.
                    if !skipping, start < bytes.count, let entry = Self.entry(UnsafeBufferPointer(rebasing: bytes[start...])) { read.append(entry) }
                    break
                }
                if start == 0 { skipping = true }
                window.slide(to: start == 0 ? window.origin + bytes.count : window.origin + start)
                start = 0
                continue
            }
            if !skipping, let entry = Self.entry(UnsafeBufferPointer(rebasing: bytes[start..<end])) { read.append(entry) }
            skipping = false
            start = end + 1
        }
        return ImportBase(unsorted: read)
    }

    /// `id` and each shared field as `TaskField.writeBaseLine` writes it: ` <caption hash>`,
    /// ` p` or ` b`, `1` or `0`, then ` <due hash>` (since due dates) and the fields after
    /// it. A line ends where the HotTask that wrote it had no more fields: those are unknown.
    private static func entry(_ line: UnsafeBufferPointer<UInt8>) -> (id: UUID, entry: Entry)? {
        guard line.count > 36, let id = UUIDBytes.parse(UnsafeBufferPointer(rebasing: line[0..<36])) else { return nil }
        var prints = PerField<UInt64>(repeating: Entry.unknown)
        var at = 36
        for field in TaskField.shared {
            guard at < line.count else {
                // A line must hold the fields every base has.
                if case .always = field.inOldBases { return nil }
                break
            }
            guard let (print, next) = field.readBaseLine(line, at: at) else { return nil }
            prints[field.rawValue] = print
            at = next
        }
        guard at == line.count else { return nil }
        return (id, Entry(prints: prints))
    }

    /// Entries in any order, the last of an id winning (as if each were recorded in turn).
    private init(unsorted: consuming [(id: UUID, entry: Entry)]) {
        Self.sortKeepingLast(&unsorted)
        entries = unsorted
    }

    /// Sorts by id in place, stably, and keeps each id's last entry: no second array of
    /// entries is made (at 100,000 tasks each is 9.6 MB, and three were once held at an
    /// import's peak).
    private static func sortKeepingLast(_ list: inout [(id: UUID, entry: Entry)]) {
        let inOrder = zip(list, list.dropFirst()).allSatisfy { UUIDBytes.sortKey($0.id) < UUIDBytes.sortKey($1.id) }
        if inOrder { return }
        // By key, then position, each key made once (made in every comparison, the sort was a
        // twentieth of an import of 100,000 tasks).
        let order = SortedIDs(count: list.count) { add in for item in list { add(item.id) } }
        // The permutation applied cycle by cycle: place `at` takes the entry at `order`'s position.
        var placed = [Bool](repeating: false, count: list.count)
        for start in list.indices where !placed[start] {
            let first = list[start]
            var at = start
            while true {
                placed[at] = true
                let from = Int(order.entries[at].position)
                if from == start {
                    list[at] = first
                    break
                }
                list[at] = list[from]
                at = from
            }
        }
        // Equal ids are in the order given: the last of each run stays.
        var kept = 0
        for index in list.indices {
            if kept > 0, list[kept - 1].id == list[index].id {
                list[kept - 1] = list[index]
            } else {
                list[kept] = list[index]
                kept += 1
            }
        }
        list.removeLast(list.count - kept)
    }

    /// What a file said of its tasks, to be recorded: 96 bytes a task, sorted by id, each
    /// id's last.
    struct Said: Sendable {
        fileprivate var entries: [(id: UUID, entry: Entry)]

        init<Tasks: Sequence<TaskItem>>(_ tasks: Tasks) {
            entries = tasks.map { ($0.id, Entry($0)) }
            ImportBase.sortKeepingLast(&entries)
        }
    }

    /// What a file's tasks said, recorded onto the base and the base written to `path` (an
    /// import's pending file, `ExchangeFiles`), on a thread of its own while the import merges
    /// the tasks: the fingerprints, their sort and the write were a fifth of an import of
    /// 100,000 tasks on its one busy core. `written()` says whether the base changed, and so
    /// was written; a write that failed is thrown there.
    final class PendingWrite: Sendable {
        private let made: MadeOnOwnThread<Result<Bool, StoreDocument.ExportFailure>>

        init(_ tasks: [TaskItem], ids: SortedIDs, onto base: ImportBase, path: String) {
            made = MadeOnOwnThread {
                do throws(StoreDocument.ExportFailure) {
                    return .success(try base.saveRecording(tasks, ids: ids, to: path))
                } catch {
                    return .failure(error)
                }
            }
        }

        /// Waits for it.
        func written() throws(StoreDocument.ExportFailure) -> Bool {
            try made.value.get()
        }
    }

    /// Records what a file said: its entries replace the base's for the same ids. Returns
    /// whether the base changed.
    @discardableResult
    mutating func record(_ said: consuming Said) -> Bool {
        let incoming = said.entries
        if entries.isEmpty {
            entries = incoming
            return !entries.isEmpty
        }
        // Every id known already (a file imported again): each entry replaced where it is,
        // with no third array beside the two.
        if Self.holdsEvery(incoming, in: entries) {
            var changed = false
            var old = 0
            for entry in incoming {
                while entries[old].id != entry.id { old += 1 }
                if entries[old].entry != entry.entry {
                    entries[old].entry = entry.entry
                    changed = true
                }
            }
            return changed
        }
        var merged: [(id: UUID, entry: Entry)] = []
        merged.reserveCapacity(entries.count + incoming.count)
        var next = incoming.makeIterator()
        let changed = merging({ next.next() }) { merged.append(($0, $1)) }
        entries = merged
        return changed
    }

    /// Walks this base and what a file said together, in id order: gives `line` every id's
    /// entry (the file's where both have one) and returns whether any differs from the base's.
    /// `next` gives the file's entries in id order, one an id, then nil.
    private func merging(_ next: () -> (id: UUID, entry: Entry)?, _ line: (UUID, Entry) -> Void) -> Bool {
        var changed = false
        var old = 0
        while let (id, entry) = next() {
            let key = UUIDBytes.sortKey(id)
            while old < entries.count, UUIDBytes.sortKey(entries[old].id) < key {
                line(entries[old].id, entries[old].entry)
                old += 1
            }
            if old < entries.count, entries[old].id == id {
                changed = changed || entries[old].entry != entry
                old += 1
            } else {
                changed = true
            }
            line(id, entry)
        }
        for (id, entry) in entries[old...] { line(id, entry) }
        return changed
    }

    /// Whether every id of `incoming` is in `entries` (both sorted by id).
    private static func holdsEvery(_ incoming: [(id: UUID, entry: Entry)], in entries: [(id: UUID, entry: Entry)]) -> Bool {
        guard incoming.count <= entries.count else { return false }
        var old = 0
        for entry in incoming {
            let key = UUIDBytes.sortKey(entry.id)
            while old < entries.count, UUIDBytes.sortKey(entries[old].id) < key { old += 1 }
            guard old < entries.count, entries[old].id == entry.id else { return false }
            old += 1
        }
        return true
    }

    /// Writes the base beside `store`, one line per id, in id order.
    func save(besides store: TaskStore) throws(StoreDocument.ExportFailure) {
        try save(to: Self.path(besides: store))
    }

    /// Writes the base to `path` (an import's, pending its commit: `ExchangeFiles`).
    func save(to path: String) throws(StoreDocument.ExportFailure) {
        _ = try Self.write(to: path) { line in
            for (id, entry) in entries { line(id, entry) }
            return true
        }
    }

    /// `record(Said(tasks))` and `save(to: path)` in one pass, without the entries of `tasks`
    /// ever held (9.6 MB at 100,000 tasks, on top of an import's peak): each is made as its
    /// line is written, in id order (each id's last). Returns whether the base changed; when
    /// it did not, nothing is written.
    /// `ids`: the tasks' ids (`SortedIDs(tasks)`), made once for this and the merge.
    func saveRecording(_ tasks: [TaskItem], ids: SortedIDs? = nil, to path: String) throws(StoreDocument.ExportFailure) -> Bool {
        let order = (ids ?? SortedIDs(tasks)).entries
        let shared = TaskField.shared
        // Read in place: a copy of each task, taken in id order, retained and released its
        // caption and box, a third of this thread's time.
        return try tasks.withUnsafeBufferPointer { tasks throws(StoreDocument.ExportFailure) in
            try Self.write(to: path) { line in
                // The file's entries in id order, each id's last.
                var run = 0
                return merging(
                    {
                        guard run < order.count else { return nil }
                        var last = run
                        while last + 1 < order.count, order[last + 1].key == order[run].key { last += 1 }
                        run = last + 1
                        let task = tasks.baseAddress! + Int(order[last].position)
                        return (task.pointee.id, Entry(at: task, fields: shared))
                    }, line)
            }
        }
    }

    /// Writes the lines `lines` gives (in id order, one per id) to `path` through a temp file,
    /// in pieces of a few thousand: the whole file (14 MB at 100,000 tasks) is never held.
    /// The file is put in place when `lines` returns true, and left unwritten otherwise.
    private static func write(
        to path: String, _ lines: (_ line: (UUID, Entry) -> Void) -> Bool
    ) throws(StoreDocument.ExportFailure) -> Bool {
        let shared = TaskField.shared
        // The id, each field's part, the line break. Written straight into the bytes, each
        // line's room known: appended byte by byte, it cost a tenth of a first todo.txt export.
        let lineWidth = 36 + shared.reduce(0) { $0 + $1.baseLineWidth } + 1
        // 2,048 lines: about 0.5 MB held, on top of an import's peak.
        let linesPerPiece = 2048
        do {
            // Temp files of saves that were killed (their writer is gone) go first.
            FileSystem.removeDeadWritersTempFiles(besides: path)
            var file = try FileSystem.AtomicFile(replacing: path)
            var piece: [(id: UUID, entry: Entry)] = []
            piece.reserveCapacity(linesPerPiece)
            func flush() {
                file.write(
                    [UInt8](unsafeUninitializedCapacity: piece.count * lineWidth) { buffer, count in
                        count = 0
                        guard let out = buffer.baseAddress else { return }
                        var at = 0
                        for (id, entry) in piece {
                            at += UUIDBytes.write(id, to: out + at)
                            // Up to the last field it knows: an unknown one is never written before a known one.
                            for field in shared {
                                guard let print = entry[field] else { break }
                                at += field.writeBaseLine(print, to: out + at)
                            }
                            out[at] = 0x0A
                            at += 1
                        }
                        count = at
                    })
                piece.removeAll(keepingCapacity: true)
            }
            let keep = lines { id, entry in
                piece.append((id, entry))
                if piece.count == linesPerPiece { flush() }
            }
            guard keep else {
                file.abandon()
                return false
            }
            flush()
            try file.install()
            return true
        } catch {
            throw StoreDocument.ExportFailure(reason: error.reason)
        }
    }

    static func hash(_ text: String) -> UInt64 { FNV1a.hash(text.utf8) }

    /// The fingerprints of the values that are one of two, or none (`TaskField.fingerprint(of:)`):
    /// made once, not for every task an export records.
    static let priorityPrint = fingerprint(.section(.priority))
    static let bonusPrint = fingerprint(.section(.bonus))
    static let donePrint = fingerprint(.completed(true))
    static let openPrint = fingerprint(.completed(false))
    /// An empty text's: no note, no tags, no repeat rule.
    static let emptyTextPrint = fingerprint(.note(""))

    /// A field's value as the base keeps it: a 64-bit hash of its text (the merge only asks
    /// "same or not"), never `Entry.unknown`. A caption's is the hash of the caption; a due
    /// date's is never 0, which stands for none.
    static func fingerprint(_ value: FieldValue) -> UInt64 {
        switch value {
        case .due(nil): return 0
        case .due: return hash(value.fingerprintText) & ~(1 << 63) | 1
        default:
            let print = hash(value.fingerprintText)
            return print == Entry.unknown ? print - 1 : print
        }
    }
}
