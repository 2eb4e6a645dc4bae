import Foundation

/// todo.txt (http://todotxt.org): one task per line.
///
/// Reading: `x ` starts a completed task, optionally followed by its completion date and its
/// creation date; an open task may start with a priority `(A) `…`(Z) ` and a creation date.
/// Priority A goes to Top Priority, everything else to Bonus. A completed task keeps its
/// priority as a `pri:A` tag (the convention of todo.sh), which is read back too. `+project`
/// and `@context` words stay in the caption, which passes the caption rule.
///
/// todo.txt has no ids. HotTask writes each task's id prefix as an `id:1a2b3c4d` tag and
/// reads it back; a line without one matches a task with the same caption (see
/// `TaskList.resolvingIdentity`), and otherwise gets an id derived from its caption (and how
/// many lines with that caption came before it): importing the same file twice changes
/// nothing, and a line ticked off in another app is still the same task.
public enum TodoTxtFormat {
    /// The tasks of a todo.txt text. `now` dates tasks that carry no date.
    public static func batch(from bytes: [UInt8], now: Date = Timestamp.now()) throws(DocumentError) -> ImportBatch {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalid("the todo.txt file is not valid UTF-8 text")
        }
        var tasks: [TaskItem] = []
        var idPrefixes: [Int: String] = [:]
        var occurrences: [String: Int] = [:]
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            let (task, idPrefix) = try task(from: line, number: offset + 1, now: now)
            let seen = occurrences[task.caption, default: 0]
            occurrences[task.caption] = seen + 1
            var identified = task
            identified.id = stableID(task.caption, seen)
            if let idPrefix { idPrefixes[tasks.count] = idPrefix }
            tasks.append(identified)
        }
        return ImportBatch(format: .todoTxt, tasks: tasks, skipped: 0, idPrefixes: idPrefixes)
    }

    /// The task a line holds (its id still to be given) and its `id:` tag, if any.
    private static func task(from line: String, number: Int, now: Date) throws(DocumentError) -> (TaskItem, String?) {
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var completed = false
        var completedAt: Date?
        var createdAt: Date?
        var topPriority = false
        if words.first == "x" {
            completed = true
            words.removeFirst()
            if let date = words.first.flatMap(date(from:)) {
                completedAt = date
                words.removeFirst()
                if let created = words.first.flatMap(date(from:)) {
                    createdAt = created
                    words.removeFirst()
                }
            }
        } else {
            if let first = words.first, let letter = priority(from: first) {
                topPriority = letter == "A"
                words.removeFirst()
            }
            if let created = words.first.flatMap(date(from:)) {
                createdAt = created
                words.removeFirst()
            }
        }
        // `pri:X` is where a completed task keeps its priority.
        if let tag = words.firstIndex(where: { $0.hasPrefix("pri:") && $0.count == 5 }) {
            topPriority = words[tag] == "pri:A"
            words.remove(at: tag)
        }
        var idPrefix: String?
        if let tag = words.lastIndex(where: { $0.hasPrefix("id:") && TaskList.isIDPrefix(String($0.dropFirst(3))) }) {
            idPrefix = String(words[tag].dropFirst(3)).lowercased()
            words.remove(at: tag)
        }
        let caption: String
        do {
            caption = try CaptionRule.clean(words.joined(separator: " "))
        } catch {
            throw .invalid("line \(number): \(error)")
        }
        let created = createdAt ?? completedAt ?? now
        let finished = completed ? max(completedAt ?? created, created) : nil
        let task = TaskItem(
            id: UUID(), caption: caption, section: topPriority ? .priority : .bonus, completed: completed,
            createdAt: created, completedAt: finished, modifiedAt: finished ?? created)
        return (task, idPrefix)
    }

    /// `(A)`…`(Z)`: the letter.
    private static func priority(from word: String) -> Character? {
        let characters = Array(word)
        guard characters.count == 3, characters[0] == "(", characters[2] == ")",
            let letter = characters[1].asciiValue, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(letter)
        else { return nil }
        return characters[1]
    }

    /// `YYYY-MM-DD` as midnight UTC, or nil when the word is not a valid date.
    static func date(from word: String) -> Date? {
        guard word.utf8.count == 10, word.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Timestamp.parse(word + "T00:00:00Z")
    }

    /// A UUID made from the caption and how often it appeared before (FNV-1a, twice, with the
    /// version 8 and variant bits set): stable across imports, distinct within a file.
    private static func stableID(_ caption: String, _ occurrence: Int) -> UUID {
        UUIDBytes.derived(from: Array(caption.utf8) + Array("#\(occurrence)".utf8))
    }

    // MARK: Writing

    /// The todo.txt text of a list: Top Priority first, then Bonus, in display order. Open Top
    /// Priority tasks get `(A) `; completed ones `x <completion date> <creation date>` and, from
    /// Top Priority, a `pri:A` tag. The creation date is always written, so a caption that
    /// happens to start with `x ` or `(B) ` reads back as a caption. Every line ends with the
    /// task's `id:` tag (its short id), so that importing the file back finds the same tasks.
    public static func text(for list: TaskList) -> String {
        var bytes: [UInt8] = []
        write(list) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text(for:)` in pieces of about `pieceSize` bytes, each given to `emit` when full.
    public static func write(_ list: TaskList, pieceSize: Int = 1 << 18, emit: ([UInt8]) -> Void) {
        var piece: [UInt8] = []
        piece.reserveCapacity(pieceSize + 4096)
        let shortIDs = list.shortIDs()
        var position = 0
        for section in Section.allCases {
            for task in list.tasks(in: section) {
                defer { position += 1 }
                let created = day(task.createdAt)
                let idTag = " id:" + shortIDs[position]
                let line: String
                if task.completed {
                    let tag = section == .priority ? " pri:A" : ""
                    line = "x \(day(task.completedAt ?? task.modifiedAt)) \(created) \(task.caption)\(tag)\(idTag)\n"
                } else {
                    line = (section == .priority ? "(A) " : "") + "\(created) \(task.caption)\(idTag)\n"
                }
                piece.append(contentsOf: line.utf8)
                if piece.count >= pieceSize {
                    emit(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
        }
        emit(piece)
    }

    private static func day(_ date: Date) -> String {
        String(Timestamp.format(date).prefix(10))
    }
}
