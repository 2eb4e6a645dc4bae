import FoundationEssentials
import Glibc

/// todo.txt (http://todotxt.org): one task per line.
///
/// Reading: `x ` starts a completed task, optionally followed by its completion date and its
/// creation date; an open task may start with a priority `(A) `…`(Z) ` and a creation date.
/// Priority A goes to Top Priority, everything else to Bonus. A completed task keeps its
/// priority as a `pri:A` tag, which is read back too; a completed line with neither says
/// nothing of its section (todo.sh 2.11's `do` drops the `(A) `), so its task keeps the one it
/// has here. `+project` and `@context` words are the task's tags (`project`, `@context`: the
/// context keeps its sigil, so that it goes back as it came), written back after the caption;
/// where a line has nothing else, they stay its caption. The caption passes the caption rule.
///
/// `due:YYYY-MM-DD` is the due date and `rec:` the repeat rule (`TodoTxtRecurrence`: `rec:1w`
/// a week after done, `rec:+1w` a week after the due date), written back after the tags.
///
/// todo.txt has no ids. HotTask writes each task's id prefix as an `id:1a2b3c4d` tag and
/// reads it back; a line without one matches a task with the same caption (see
/// `TaskList.resolvingIdentity`), and otherwise gets an id derived from its caption (and how
/// many lines with that caption came before it): importing the same file twice changes
/// nothing, and a line ticked off in another app is still the same task. A line that lost its
/// tag is placed by `TodoTxtPlacement`; a tag given twice is imported once, with a note.
enum TodoTxtFormat {
    /// The tasks of a todo.txt text. `now` dates tasks that carry no date.
    static func batch(from bytes: [UInt8], now: Date = Timestamp.now()) throws(DocumentError) -> ImportBatch {
        try batch(files: [("todo.txt", bytes)], now: now)
    }

    /// The tasks of several todo.txt texts read as one file, in order: todo.txt, then the
    /// archive todo.sh moves completed lines to (`done.txt`). A line whose `id:` tag an earlier
    /// line had is imported once, as that earlier line; an exact copy (todo.sh archiving a line
    /// HotTask exported again) silently, any other with a note naming both lines.
    static func batch(files: [(name: String, bytes: [UInt8])], now: Date = Timestamp.now()) throws(DocumentError) -> ImportBatch {
        var tasks: [TaskItem] = []
        var idPrefixes: [Int: String] = [:]
        var occurrences: [TextDigest: Int] = [:]
        var facts = TodoTxtLines()
        var positionOfID: [String: Int] = [:]
        // What each line carries (`TodoTxtRecord`), by position: a priority other than A (Bonus
        // here, written back on export), no creation date, archived in done.txt.
        var records: [Int: String] = [:]
        // Done lines of past occurrences in todo.txt (todo.sh's `do` without auto-archive), by
        // their task's position: the export writes them back until todo.sh archives them.
        var doneLines: [Int: [String]] = [:]
        for (fileIndex, file) in files.enumerated() {
            // Checked whole, then read as bytes: every word and caption is a run of these.
            guard String(validating: file.bytes, as: UTF8.self) != nil else {
                throw .invalid("the \(fileIndex == 0 ? "todo.txt" : file.name) file is not valid UTF-8 text")
            }
            facts.files.append((file.name, tasks.count))
            file.bytes.withUnsafeBufferPointer { all in
                var lineStart = 0
                var number = 0
                while lineStart < all.count {
                    let lineEnd = all[lineStart...].firstIndex(of: 0x0A) ?? all.count
                    defer { lineStart = lineEnd + 1 }
                    number += 1
                    // CRLF ends a line as LF does, and so does CR CR LF (a CRLF file passed once
                    // more through a LF-to-CRLF conversion): no caption ends in a CR.
                    var rawEnd = lineEnd
                    while rawEnd > lineStart && all[rawEnd - 1] == 0x0D { rawEnd -= 1 }
                    let raw = lineStart..<rawEnd
                    let trimmed = Blanks.trimmed(all, raw)
                    guard !trimmed.isEmpty else { continue }
                    // A `#` line is a comment, not a task: kept as it is for the export back.
                    // The character `#`, not its byte: `#️⃣ Call Bob` (a `#` with marks that make
                    // it another character) is a task, as it was when lines were Strings.
                    if all[trimmed.lowerBound] == UInt8(ascii: "#"),
                        String(decoding: UnsafeBufferPointer(rebasing: all[trimmed.prefix(16)]), as: UTF8.self).first == "#"
                    {
                        if fileIndex == 0 { facts.comments.append(String(decoding: UnsafeBufferPointer(rebasing: all[raw]), as: UTF8.self)) }
                        continue
                    }
                    let lineBytes = UnsafeBufferPointer(rebasing: all[trimmed])
                    let read = task(from: lineBytes, now: now)
                    let keptDone = fileIndex == 0 && read.task.completed && !read.task.repeatRule.isNone
                    if let idPrefix = read.idPrefix {
                        if let first = positionOfID[idPrefix] {
                            if keptDone { doneLines[first, default: []].append(String(decoding: lineBytes, as: UTF8.self)) }
                            // A repeating task's done line is an occurrence done before (todo.sh's `do`,
                            // archived or not, since moved on): silently the same task. The open line
                            // counts, else the latest done one (issue 52).
                            if supersedes(read.task, tasks[first], sameFile: first >= facts.files[fileIndex].firstPosition) {
                                let (task, record) = lineTask(read, line: lineBytes, archived: fileIndex > 0)
                                tasks[first] = identified(task, tasks[first].id)
                                records[first] = record
                                facts.numbers[first] = number
                                facts.note(read, at: first)
                                continue
                            }
                            let pastOccurrence = read.task.completed && !read.task.repeatRule.isNone
                            if !pastOccurrence,
                                !sameLine(tasks[first], read.task, priorityUnsaid: facts.priorityUnsaid.contains(first) || read.priorityUnsaid)
                            {
                                facts.notes.append(
                                    "\(facts.place(of: first)) and \(fileIndex == 0 ? "" : file.name + " ")line \(number) have the same id:\(idPrefix); imported once, as \(facts.place(of: first))"
                                )
                            }
                            continue
                        }
                        positionOfID[idPrefix] = tasks.count
                        idPrefixes[tasks.count] = idPrefix
                        if keptDone { doneLines[tasks.count] = [String(decoding: lineBytes, as: UTF8.self)] }
                    }
                    // The line's words as an older HotTask took them (its tags in the caption): the
                    // same id for the same line whichever HotTask imports it.
                    let words = read.captionWithTags ?? TextDigest(read.task.caption)
                    let seen = occurrences[words, default: 0]
                    occurrences[words] = seen + 1
                    let (task, record) = lineTask(read, line: lineBytes, archived: fileIndex > 0)
                    facts.note(read, at: tasks.count)
                    if let record { records[tasks.count] = record }
                    facts.numbers.append(number)
                    tasks.append(identified(task, stableID(words, seen)))
                }
            }
        }
        for (position, lines) in doneLines {
            var record = TodoTxtRecord(records[position])
            record.doneLines = lines
            records[position] = record.text
        }
        var batch = ImportBatch(format: .todoTxt, tasks: tasks, skipped: 0, idPrefixes: idPrefixes)
        batch.todoTxtLines = facts
        batch.carried = records
        return batch
    }

    /// A line's task and the text of what it carries (`TodoTxtRecord`); `line`: its bytes, as
    /// `task(from:now:)` read them.
    private static func lineTask(_ read: Line, line: UnsafeBufferPointer<UInt8>, archived: Bool) -> (TaskItem, String?) {
        var record = TodoTxtRecord(letter: read.letter.flatMap { $0 == "A" ? nil : String($0) }, undated: read.noCreationDate, archived: archived)
        if read.dueAssumed { record.assumedDue = read.task.due?.dayText }
        // The due day the file now says for a repeating task: its open line's, or after a done
        // line the next occurrence the import moves it to.
        // (None for a line without `due:`: its day is the import's, not the file's.)
        if !read.task.repeatRule.isNone, !read.dueAssumed, let due = read.task.due {
            let doneOn = read.task.completedAt.map { DueDate.localDay(of: $0, in: .current) }
            record.lineDue = (read.task.completed ? doneOn.flatMap { read.task.repeatRule.next(after: due, doneOn: $0)?.due } : due)?.dayText
        }
        // Words in another order than an export writes them are kept, to go back as they came.
        // Compared and hashed in two parts: a line of 50 MB is not copied to ask.
        // The words are joined straight after the record's other marks: one copy of them.
        let written = words(of: read.task, caption: read.task.caption, record: record)
        let lineWords = TodoTxtLineWords(bytes: line)
        guard !lineWords.joined(from: read.body.start, leavingOut: read.body.leftOut, equals: written.caption, then: written.tail) else {
            return (read.task, record.text)
        }
        record.words = (FNV1a.hash(written.tail.utf8, seed: ImportBase.hash(written.caption)), "")
        let head = record.text ?? ""
        return (read.task, lineWords.joined(from: read.body.start, leavingOut: read.body.leftOut, tags: false, after: head))
    }

    private static func identified(_ task: TaskItem, _ id: UUID) -> TaskItem {
        var task = task
        task.id = id
        return task
    }

    /// True when `line` says a repeating task now rather than `earlier`, a done line of it
    /// (an occurrence done): an open line, or one done on a later day, or the same day further
    /// down the same file (todo.sh's archive appends).
    private static func supersedes(_ line: TaskItem, _ earlier: TaskItem, sameFile: Bool) -> Bool {
        guard earlier.completed, !earlier.repeatRule.isNone else { return false }
        guard line.completed else { return true }
        guard !line.repeatRule.isNone, let done = line.completedAt, let before = earlier.completedAt else { return false }
        return done > before || (done == before && sameFile)
    }

    /// Two lines that say the same of their task (a completed line without a priority says
    /// nothing of its section).
    private static func sameLine(_ a: TaskItem, _ b: TaskItem, priorityUnsaid: Bool) -> Bool {
        a.caption == b.caption && a.completed == b.completed && a.completedAt == b.completedAt && a.createdAt == b.createdAt
            && (priorityUnsaid || a.section == b.section)
    }

    /// The task a line holds (its id still to be given), its `id:` tag if any, and what the
    /// line left unsaid.
    typealias Line = (
        task: TaskItem, idPrefix: String?, undated: Bool, priorityUnsaid: Bool, letter: Character?, noCreationDate: Bool,
        captionWithTags: TextDigest?, body: (start: Int, leftOut: Set<Int>), dueAssumed: Bool
    )

    /// The tag a `+project` or `@context` word is (`project`, `@context`), when its name reads
    /// as a tag's (`TagRule.isTagName`: not `+1`, not an e-mail address).
    static func tag(from word: String) -> String? {
        if word.hasPrefix("+"), TagRule.isTagName(word.dropFirst()) { return String(word.dropFirst()) }
        if word.hasPrefix("@"), TagRule.isTagName(word.dropFirst()) { return word }
        return nil
    }

    /// How a tag is written in todo.txt: `+project`, a context as it is (`@phone`); a space
    /// inside one (a calendar's category) as `_`, since a todo.txt word has none.
    static func word(for tag: String) -> String {
        let word = tag.utf8.contains(0x20) ? tag.replacing(" ", with: "_") : tag
        return word.hasPrefix("@") ? word : "+" + word
    }

    /// `(A)`…`(Z)`: the letter.
    static func priority(from word: String) -> Character? {
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
    private static func stableID(_ words: TextDigest, _ occurrence: Int) -> UUID {
        words.id(then: "#\(occurrence)".utf8)
    }

    // MARK: Writing

    /// The todo.txt text of a list: Top Priority first, then Bonus, in display order. Open Top
    /// Priority tasks get `(A) `; completed ones `x <completion date> <creation date>` and, from
    /// Top Priority, a `pri:A` tag. Every line ends with the task's `id:` tag (its short id), so
    /// that importing the file back finds the same tasks.
    ///
    /// What the file's import carried (`TodoTxtRecord`) is respected: a line that had no
    /// creation date gets none (unless its caption would then read as a date, a priority or a
    /// done mark: a made-up date is better than a changed task), a Bonus task gets its other
    /// priority letter back, and a task whose line todo.sh archived in `done.txt` is not written
    /// while it stays done (todo.sh would archive it a second time; `leavingOutArchived`: the file
    /// is the one it was archived from). `comments`, the file's `#` lines, come first. A caption's line breaks become spaces: a line is one line.
    static func text(for list: TaskList, carried: CarriedFields = CarriedFields(), comments: [String] = []) -> String {
        var bytes: [UInt8] = []
        write(list, carried: carried, comments: comments, leavingOutArchived: true) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What an export left out (tasks archived in done.txt) and the captions it had to fold onto
    /// one line (as the file now says them).
    struct Written: Sendable {
        var archived: Set<UUID> = []
        var folded: [UUID: String] = [:]
        /// The done lines written for occurrences done here since the file last had the line.
        var doneHere: [UUID: [String]] = [:]
    }

    /// `text(for:)` in pieces of about `pieceSize` bytes, each given to `emit` when full.
    @discardableResult
    static func write(
        _ list: TaskList, carried: CarriedFields = CarriedFields(), comments: [String] = [], leavingOutArchived: Bool = true,
        pieceSize: Int = 1 << 18, emit: ([UInt8]) -> Void
    ) -> Written {
        var piece: [UInt8] = []
        piece.reserveCapacity(pieceSize + 4096)
        for comment in comments { piece.append(contentsOf: (comment + "\n").utf8) }
        var written = Written()
        let shortIDs = list.shortIDs()
        var position = 0
        for section in Section.allCases {
            for task in list.tasks(in: section) {
                defer { position += 1 }
                let record = carried.isEmpty ? TodoTxtRecord() : TodoTxtRecord(carried[task.id, .todoTxt])
                // Archived by todo.sh and still done: done.txt has it.
                if leavingOutArchived && record.archived && task.completed {
                    written.archived.insert(task.id)
                    continue
                }
                var caption = task.caption
                if breaksLine(caption) {
                    caption = lineCaption(caption)
                    written.folded[task.id] = caption
                }
                var tail = ""
                (caption, tail) = words(of: task, caption: caption, record: record)
                // No creation date where the line had none, unless the caption would then be misread.
                let created = record.undated && !misreadWithoutADate(caption, completed: task.completed) ? "" : day(task.createdAt) + " "
                let idTag = tail + " id:" + shortIDs[position]
                let line: String
                let letter = section == .priority ? "A" : record.letter
                if task.completed {
                    let tag = letter.map { " pri:\($0)" } ?? ""
                    line = "x \(day(task.completedAt ?? task.modifiedAt)) \(created)\(caption)\(tag)\(idTag)\n"
                } else {
                    line = (letter.map { "(\($0)) " } ?? "") + "\(created)\(caption)\(idTag)\n"
                }
                // The occurrences done there before, until todo.sh archives them.
                if !task.completed { for done in record.doneLines { piece.append(contentsOf: (done + "\n").utf8) } }
                // The occurrences done here since the file had the line: a done line each.
                let doneHere = task.completed ? [] : doneLines(doneHere: task, record: record, created: created, id: shortIDs[position])
                for done in doneHere { piece.append(contentsOf: (done + "\n").utf8) }
                if !doneHere.isEmpty { written.doneHere[task.id] = doneHere }
                piece.append(contentsOf: line.utf8)
                if piece.count >= pieceSize {
                    emit(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
        }
        emit(piece)
        return written
    }

    /// A task's words on its line: its caption (folded onto one line) with its tags right after
    /// it (as todo.sh writes them), and the add-on tags: `due:` (none while it is the day an
    /// import gave a `rec:` line without one) and `rec:`. Words a line had in another order
    /// come back as they came while the task says what they said (issue 52).
    static func words(of task: TaskItem, caption: String, record: TodoTxtRecord) -> (caption: String, tail: String) {
        var caption = caption
        if !task.tags.isEmpty { caption += task.tags.map { " " + word(for: $0) }.joined() }
        var tail = ""
        if let due = task.due, !(due.isDay && record.assumedDue == due.dayText) { tail = " " + due.todoTxtTag() }
        if !task.repeatRule.isNone, let rec = TodoTxtRecurrence.word(for: task.repeatRule) { tail += " " + rec }
        if let words = record.words, words.said == FNV1a.hash(tail.utf8, seed: ImportBase.hash(caption)) { return (words.text, "") }
        return (caption, tail)
    }

    /// Whether a caption would end its todo.txt line early: CR, LF, U+2028 or U+2029.
    /// Scanned as bytes; Foundation's `contains` made this check most of a todo.txt export.
    static func breaksLine(_ caption: String) -> Bool {
        var caption = caption
        let lead = caption.withUTF8 { bytes -> Bool? in
            var lead = false
            for byte in bytes {
                if byte == 0x0A || byte == 0x0D { return nil }
                if byte == 0xE2 { lead = true }
            }
            return lead
        }
        guard let lead else { return true }
        return lead && caption.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    /// A caption as a todo.txt line holds it: each line break a space (tabs stay).
    static func lineCaption(_ caption: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in caption.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n", previous == "\r" { continue }
            switch scalar.value {
            case 0x0A, 0x0D, 0x2028, 0x2029: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// True when a line written without a creation date would read `caption` otherwise: its
    /// first word a date (taken for the creation date), or, on an open line, `x` or `(B)`.
    private static func misreadWithoutADate(_ caption: String, completed: Bool) -> Bool {
        let first = caption.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true).first.map(String.init) ?? ""
        if date(from: first) != nil { return true }
        return !completed && (first == "x" || priority(from: first) != nil)
    }

    static func day(_ date: Date) -> String {
        String(Timestamp.format(date).prefix(10))
    }
}
