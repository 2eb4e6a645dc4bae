import Foundation
import HotTaskCore

/// What the flags do, one method per kind of request. Each prints what it did to stdout.
struct CommandLineActions {
    let store: TaskStore
    var output = StandardOutput()

    init(store: TaskStore) {
        self.store = store
    }

    /// Adds, completes, reopens, moves and deletes in one locked read-modify-write. Captions and
    /// handles are all checked before anything changes; handles name tasks as they were before.
    mutating func change(
        adding captions: [String], section: Section, completing: [String], reopening: [String],
        moving: [String], deleting: [String]
    ) throws {
        let cleaned = try captions.map { raw in
            do {
                return try CaptionRule.clean(raw)
            } catch {
                throw RefusedError(message: "cannot add \(quoted(raw)): \(error)")
            }
        }
        if completing.isEmpty && reopening.isEmpty && moving.isEmpty && deleting.isEmpty {
            // Only adds: the journal's fast path, whose cost does not grow with the list.
            let now = Timestamp.now()
            try store.add(cleaned.map { TaskItem(caption: $0, section: section, createdAt: now) })
            cleaned.forEach { output.line("Added to \(section.title): \($0)") }
            return
        }
        let report = try store.update { list throws -> [String] in
            func ids(_ handles: [String], for flag: String) throws -> [UUID] {
                try handles.map { handle in
                    do {
                        return list[try list.position(ofHandle: handle)].id
                    } catch {
                        throw RefusedError(message: "\(flag) \(handle): \(error)")
                    }
                }
            }
            let toComplete = try ids(completing, for: "--done")
            let toReopen = try ids(reopening, for: "--undone")
            let toMove = try ids(moving, for: "--move")
            let toDelete = try ids(deleting, for: "--delete")
            if let both = Set(toComplete).intersection(toReopen).first, let task = list.task(withID: both) {
                throw RefusedError(message: "\(quoted(task.caption)) is given to both --done and --undone")
            }
            let now = Timestamp.now()
            var lines: [String] = []
            for caption in cleaned.reversed() {
                list.insertOnTop(TaskItem(caption: caption, section: section, createdAt: now))
            }
            lines += cleaned.map { "Added to \(section.title): \($0)" }
            for id in toComplete {
                guard let position = list.position(of: id) else { continue }
                let changed = list.setCompleted(true, at: position, now: now)
                lines.append("\(changed ? "Completed" : "Already completed"): \(list[position].caption)")
            }
            for id in toReopen {
                guard let position = list.position(of: id) else { continue }
                let changed = list.setCompleted(false, at: position, now: now)
                lines.append("\(changed ? "Reopened" : "Already open"): \(list[position].caption)")
            }
            for id in toMove {
                guard let position = list.position(of: id) else { continue }
                let newPosition = list.moveToOtherSection(at: position, now: now)
                let task = list[newPosition]
                lines.append("Moved to \(task.section.title): \(task.caption)")
            }
            var deleted = Set<UUID>()
            for id in toDelete where deleted.insert(id).inserted {
                guard let position = list.position(of: id) else { continue }
                lines.append("Deleted: \(list.remove(at: position).caption)")
            }
            return lines
        }
        report.forEach { output.line($0) }
    }

    mutating func importTasks(from path: String, replacing: Bool) throws {
        let bytes = try readInput(path)
        let batch: ImportBatch
        do {
            batch = try ImportBatch.parse(bytes)
        } catch {
            throw RefusedError(message: "cannot import \(path == "-" ? "standard input" : path): \(error). Nothing was changed")
        }
        let source = "\(batch.format.rawValue) \(path == "-" ? "standard input" : path)"
        guard batch.tasks.count <= TaskStore.maximumTaskCount else {
            throw RefusedError(
                message: "cannot import \(source): it holds \(batch.tasks.count) tasks; HotTask keeps at most \(TaskStore.maximumTaskCount). Nothing was changed")
        }
        if replacing {
            let replaced = try store.update { list -> Int in
                defer { list = TaskList(batch.tasks) }
                return list.count
            }
            output.line(
                "Replaced \(replaced) tasks with \(batch.tasks.count) from \(source) (skipped \(batch.skipped))")
        } else {
            let counts = try store.update { list in
                let counts = list.merge(batch)
                guard list.count <= TaskStore.maximumTaskCount else {
                    throw RefusedError(
                        message: "cannot import \(source): the list would hold \(list.count) tasks; HotTask keeps at most \(TaskStore.maximumTaskCount). Nothing was changed")
                }
                return counts
            }
            output.line("Imported from \(source): \(counts)")
        }
    }

    mutating func printList(asJSON: Bool) throws {
        let list = try store.load()
        if asJSON {
            output.bytes(StoreDocument.encode(list))
        } else {
            let styled = ListFormatter.wantsStyle(
                isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
            output.text(ListFormatter.lines(for: list, styled: styled).joined(separator: "\n") + "\n")
        }
    }

    mutating func export(to path: String, format: ExportFormat = .hottask) throws {
        let list = try store.load()
        if path == "-" {
            output.bytes(format == .todotxt ? Array(TodoTxtFormat.text(for: list).utf8) : StoreDocument.encode(list))
        } else {
            do {
                if format == .todotxt {
                    try TodoTxtFormat.export(list, to: path)
                } else {
                    try StoreDocument.export(list, to: path)
                }
            } catch {
                throw ExportError(message: "could not write the export file \(path): \(error.reason)")
            }
            FileHandle.standardError.write(Data("Exported \(list.count) tasks to \(path)\n".utf8))
        }
    }

    private func readInput(_ path: String) throws -> [UInt8] {
        do {
            return try ImportBatch.readFile(path == "-" ? "/dev/stdin" : path)
        } catch {
            throw RefusedError(message: "cannot import \(path == "-" ? "standard input" : path): \(error.reason). Nothing was changed")
        }
    }

    private func quoted(_ text: String) -> String {
        "'" + String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init)) + "'"
    }
}

/// Buffered stdout that also takes raw bytes (the JSON document).
/// Stdout written in one call per piece: `print` per line costs more than building the whole
/// text of a 100,000-task list.
struct StandardOutput {
    func line(_ text: String) {
        self.text(text + "\n")
    }

    func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { self.bytes($0) }
    }

    private func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < buffer.count {
            let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe (`| head`): nothing more to say
            }
            offset += written
        }
    }
}
