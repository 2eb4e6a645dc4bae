import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// A vdir (https://vdirsyncer.pimutils.org/en/stable/vdir.html): a folder of `.ics` files, one
/// calendar object each, as todoman, khal and vdirsyncer keep a calendar.
///
/// `--import DIR` reads every `.ics` file in it as one calendar. `--export DIR --export-format
/// vdir` writes a task into the file that holds its UID (found by reading the folder), or into
/// `UID.ics` when none does; a file whose task reads the same as here is not touched (its
/// bytes stay), and a file that holds no task of the list is never touched either.
enum VdirFolder {
    /// The `.ics` files of a folder, by name; hidden ones (a syncer's temp files) left out.
    static func files(in folder: String) throws(FileSystem.Failure) -> [String] {
        let names: [String]
        do {
            names = try FileSystem.names(in: folder)
        } catch {
            throw FileSystem.Failure(reason: "its files cannot be listed (\(error.reason))")
        }
        return names.filter { $0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted()
            .filter { (try? FileSystem.kind(of: folder + "/" + $0)) == .file }
    }

    static func isFolder(_ path: String) -> Bool {
        (try? FileSystem.kind(of: path)) == .directory
    }

    /// Every `.ics` file of the folder read as one calendar (their to-dos in one order by
    /// X-APPLE-SORT-ORDER, as a file's are). A file that does not read is named.
    static func batch(from folder: String) throws(DocumentError) -> ImportBatch {
        var all: [UInt8] = []
        var texts: [(name: String, bytes: [UInt8])] = []
        do throws(FileSystem.Failure) {
            for name in try files(in: folder) {
                let bytes = try FileSystem.readAll(folder + "/" + name, limit: StoreLimits.readBytes)
                guard all.count + bytes.count <= StoreLimits.readBytes else {
                    throw FileSystem.Failure(reason: "its .ics files hold more than a store may (\(StoreLimits.readBytes) bytes)")
                }
                texts.append((name, bytes))
                all += bytes
                if bytes.last != 0x0A { all += [0x0D, 0x0A] }
            }
        } catch {
            throw .invalid("the folder \(folder): \(error.reason)")
        }
        do {
            // A calendar name in a file is not the folder's: a folder's list is its `displayname`.
            var batch = try ICalendarFormat.batch(from: all)
            if batch.namedLists != nil {
                batch.namedLists = nil
                for index in batch.tasks.indices { batch.tasks[index].list = "" }
            }
            return batch
        } catch {
            // Which file: each read alone (only on this path, which stops the import anyway).
            for text in texts where !ICalendarFormat.looksLikeICalendar(text.bytes) || (try? ICalendarFormat.batch(from: text.bytes)) == nil {
                throw .invalid("\(text.name) in the folder: it is not a readable iCalendar file")
            }
            throw error
        }
    }

    /// What an export did to the folder.
    struct ExportCounts: Equatable, Sendable {
        var added = 0
        var changed = 0
        var unchanged = 0
        /// `.ics` files holding no task of the list (or none HotTask reads), left as they were.
        var others = 0
        /// Tasks not written: the file of their name holds something else.
        var blocked = 0
    }

    /// Writes `list` into the folder (made when missing), one calendar object per file.
    static func export(
        _ list: TaskList, carried: CarriedFields = CarriedFields(), to folder: String, now: Date = Date()
    ) throws(StoreDocument.ExportFailure) -> ExportCounts {
        var counts = ExportCounts()
        do throws(FileSystem.Failure) {
            try prepare(folder)
            // What each file holds, by the id of its to-do's UID.
            var existing: [UUID: (name: String, todo: RemoteTodo)] = [:]
            var names = Set<String>()
            for name in try files(in: folder) {
                names.insert(name)
                guard let bytes = try? FileSystem.readAll(folder + "/" + name, limit: StoreLimits.readBytes),
                    let text = String(validating: bytes, as: UTF8.self), case .todo(let todo) = TodoMapping.read(text)
                else { continue }
                existing[TodoMapping.id(forUID: todo.uid)] = (name, todo)
            }
            var known = 0
            var rank = 0
            // A parent from elsewhere is named by the UID its file or its import gave it.
            let parentUID = { (id: UUID) in
                existing[id]?.todo.uid ?? (carried.isEmpty ? nil : carried[id, .iCalendar].flatMap(ICalendarCarry.uid(ofRecord:)))
            }
            for section in Section.allCases {
                for task in list.tasks(in: section) {
                    rank += 1
                    if let (name, todo) = existing[task.id] {
                        known += 1
                        // A note or tags the file holds and this task was never given (imported
                        // before HotTask read them) stay the file's.
                        let hadOrder = todo.calendar.components.contains { $0.first("X-APPLE-SORT-ORDER") != nil }
                        let fields = SharedFields(task, sortOrder: hadOrder ? rank : nil, keepingUnreadFrom: todo.fields)
                        if todo.fields.same(fields, order: false) {
                            counts.unchanged += 1
                            continue
                        }
                        let written = TodoMapping.write(
                            fields, uid: todo.uid, clocks: task.clocks, created: task.createdAt, onto: todo.calendar,
                            now: ICalendarFormat.stamp(task, now: now), parentUID: parentUID)
                        try write(written, to: folder + "/" + name)
                        counts.changed += 1
                        continue
                    }
                    let (calendar, uid) = newObject(
                        for: task, record: carried.isEmpty ? nil : carried[task.id, .iCalendar], sortOrder: rank,
                        now: ICalendarFormat.stamp(task, now: now), parentUID: parentUID)
                    var name = fileName(for: uid)
                    // A file of that name this task is not in: never written over.
                    if names.contains(name) { name = task.id.uuidString.lowercased() + ".ics" }
                    if names.contains(name) {
                        counts.blocked += 1
                        continue
                    }
                    names.insert(name)
                    try write(calendar, to: folder + "/" + name)
                    counts.added += 1
                }
            }
            counts.others = names.count - known - counts.added
        } catch {
            throw StoreDocument.ExportFailure(reason: error.reason)
        }
        return counts
    }

    /// Makes the folder when missing; refuses a file, or a path through another's link.
    static func prepare(_ folder: String) throws(FileSystem.Failure) {
        if let link = ForeignLink.first(in: folder) { throw FileSystem.Failure(reason: link.reason + ". Nothing was changed") }
        switch try FileSystem.kind(of: folder) {
        case .directory: break
        case .missing:
            guard mkdir(folder, 0o700) == 0 else { throw FileSystem.Failure(reason: FileSystem.reason()) }
        case .file, .other: throw FileSystem.Failure(reason: "it is not a folder")
        }
    }

    private static func fields(_ task: TaskItem, sortOrder: Int?) -> SharedFields {
        SharedFields(task, sortOrder: sortOrder)
    }

    /// The calendar object of a task no file holds: from what its import carried, or HotTask's own.
    private static func newObject(
        for task: TaskItem, record: String?, sortOrder: Int, now: Date, parentUID: (UUID) -> String?
    ) -> (ICalComponent, String) {
        if let (base, uid) = record.flatMap({ ICalendarCarry.calendar(from: $0, for: task) }) {
            let hadOrder = base.components.last?.first("X-APPLE-SORT-ORDER") != nil
            let calendar = TodoMapping.write(
                fields(task, sortOrder: hadOrder ? sortOrder : nil), uid: uid, clocks: task.clocks, created: task.createdAt, onto: base, now: now,
                parentUID: parentUID)
            return (calendar, uid)
        }
        let uid = TodoMapping.uid(for: task.id)
        var calendar = TodoMapping.write(
            fields(task, sortOrder: sortOrder), uid: uid, clocks: task.clocks, created: task.createdAt, onto: nil, now: now,
            parentUID: parentUID)
        // A task imported without any date has none to give: no made-up CREATED.
        if task.createdAt.timeIntervalSince1970 <= 0 {
            for index in calendar.components.indices { calendar.components[index].set("CREATED", nil) }
        }
        return (calendar, uid)
    }

    /// `UID.ics`, as todoman and vdirsyncer name files, when the UID is safe as a file name;
    /// else the task's id.
    static func fileName(for uid: String) -> String {
        let safe =
            !uid.isEmpty && uid.utf8.count <= 200 && !uid.hasPrefix(".")
            && uid.unicodeScalars.allSatisfy { $0.isASCII && ($0.isAlphanumeric || "-_.@".unicodeScalars.contains($0)) }
        return (safe ? uid : TodoMapping.id(forUID: uid).uuidString.lowercased()) + ".ics"
    }

    /// Replaces the file atomically, keeping its mode (a new one is 0600).
    private static func write(_ calendar: ICalComponent, to path: String) throws(FileSystem.Failure) {
        var info = stat()
        let mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o600
        FileSystem.removeDeadWritersTempFiles(besides: path)
        try FileSystem.writeAtomically(Array(calendar.text.utf8), to: path, mode: mode)
    }
}
