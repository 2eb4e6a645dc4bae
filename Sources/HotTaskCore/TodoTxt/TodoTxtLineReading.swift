import FoundationEssentials
import Glibc

/// One todo.txt line read as bytes, its words the runs between spaces (U+0020).
///
/// Nothing holds a word list: a 50 MB line of nine million words took 697 MB as Strings, and
/// copies of the line for each step made reading it quadratic in practice. Each pass walks the
/// bytes; only the words a rule must read as text (marks, `+tags`, `due:`, `rec:`) become
/// Strings, and the captions are written once at their exact size.
struct TodoTxtLineWords {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Nothing in the line for `CaptionRule.kept` to drop, so nothing in any join of its words
    /// either (it drops scalars, and no scalar spans a space): joins need no cleaning, and can
    /// be compared and hashed without being made.
    let asItIs: Bool

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        asItIs = CaptionRule.keepsAsItIs(bytes)
    }

    /// Each word's range, in order, from byte `start`.
    func forEach(from start: Int = 0, _ body: (Range<Int>) -> Void) {
        var index = start
        let end = bytes.count
        while index < end {
            while index < end && bytes[index] == 0x20 { index += 1 }
            guard index < end else { return }
            let first = index
            while index < end && bytes[index] != 0x20 { index += 1 }
            body(first..<index)
        }
    }

    /// The first `count` words from the start (fewer when the line has fewer).
    func first(_ count: Int) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var index = 0
        let end = bytes.count
        while words.count < count && index < end {
            while index < end && bytes[index] == 0x20 { index += 1 }
            guard index < end else { break }
            let first = index
            while index < end && bytes[index] != 0x20 { index += 1 }
            words.append(first..<index)
        }
        return words
    }

    func text(_ word: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
    }

    func starts(_ word: Range<Int>, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard word.count >= count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[word.lowerBound + offset] != start[offset] { return false }
        return true
    }

    /// A word `TodoTxtFormat.tag(from:)` reads as a tag (`+project`, `@context`).
    func isTag(_ word: Range<Int>) -> Bool {
        let first = bytes[word.lowerBound]
        guard first == UInt8(ascii: "+") || first == UInt8(ascii: "@") else { return false }
        return TodoTxtFormat.tag(from: text(word)) != nil
    }

    /// Whether a word shows something (`CaptionRule.isVisible` for one of its scalars).
    func isVisible(_ word: Range<Int>) -> Bool {
        var wide = false
        for byte in bytes[word] {
            if byte > 0x20 && byte < 0x7F { return true }
            if byte >= 0x80 { wide = true }
        }
        return wide && text(word).unicodeScalars.contains(where: CaptionRule.isVisible)
    }

    /// The words from `start`, but those starting at `leftOut` and (with `tags`) tag words,
    /// joined by one space, as `CaptionRule.kept` keeps them; after `head` (plain ASCII) when
    /// given, in the same allocation (a carried record of a 50 MB line is not copied to join).
    func joined(from start: Int, leavingOut leftOut: Set<Int>, tags: Bool, after head: String = "") -> String {
        guard asItIs else { return head + CaptionRule.kept(raw(from: start, leavingOut: leftOut, tags: tags)) }
        return raw(from: start, leavingOut: leftOut, tags: tags, after: head)
    }

    /// `joined` before its cleaning, made at its exact size.
    private func raw(from start: Int, leavingOut leftOut: Set<Int>, tags: Bool, after head: String = "") -> String {
        var length = head.utf8.count
        forEachJoined(from: start, leavingOut: leftOut, tags: tags) { length += $0.count }
        var head = head
        return head.withUTF8 { head in
            String(unsafeUninitializedCapacity: length) { out in
                var at = 0
                func copy(_ piece: UnsafeBufferPointer<UInt8>) {
                    guard let from = piece.baseAddress, let to = out.baseAddress else { return }
                    (to + at).update(from: from, count: piece.count)
                    at += piece.count
                }
                copy(head)
                forEachJoined(from: start, leavingOut: leftOut, tags: tags, copy)
                return at
            }
        }
    }

    /// The digest of what `joined` gives, without making it where the line is as it is.
    func digest(from start: Int, leavingOut leftOut: Set<Int>, tags: Bool) -> TextDigest {
        guard asItIs else { return TextDigest(joined(from: start, leavingOut: leftOut, tags: tags).utf8) }
        var digest = TextDigest()
        forEachJoined(from: start, leavingOut: leftOut, tags: tags) { digest.add($0) }
        return digest
    }

    /// Whether what `joined` gives (tags kept) is `first` followed by `second`, compared
    /// without making it where the line is as it is.
    func joined(from start: Int, leavingOut leftOut: Set<Int>, equals first: String, then second: String) -> Bool {
        var first = first
        var second = second
        return first.withUTF8 { first in
            second.withUTF8 { second in
                var match = JoinedMatch(first, second)
                if asItIs {
                    forEachJoined(from: start, leavingOut: leftOut, tags: false) { match.consume($0) }
                } else {
                    var text = joined(from: start, leavingOut: leftOut, tags: false)
                    text.withUTF8 { match.consume($0) }
                }
                return match.isWhole
            }
        }
    }

    /// The joined words' bytes in order, each word with the space before it (from the line
    /// itself: a word after another never starts the line).
    private func forEachJoined(from start: Int, leavingOut leftOut: Set<Int>, tags: Bool, _ piece: (UnsafeBufferPointer<UInt8>) -> Void) {
        var first = true
        forEach(from: start) { word in
            guard !leftOut.contains(word.lowerBound), !(tags && isTag(word)) else { return }
            piece(UnsafeBufferPointer(rebasing: bytes[(first ? word.lowerBound : word.lowerBound - 1)..<word.upperBound]))
            first = false
        }
    }
}

/// Pieces of bytes compared, as they come, with two texts one after the other.
private struct JoinedMatch {
    let first: UnsafeBufferPointer<UInt8>
    let second: UnsafeBufferPointer<UInt8>
    private var matched = 0
    private var equal = true

    init(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) {
        self.first = first
        self.second = second
    }

    /// All pieces so far were the texts' start, and they are at their end.
    var isWhole: Bool { equal && matched == first.count + second.count }

    mutating func consume(_ piece: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while equal && offset < piece.count {
            let inFirst = matched < first.count
            let text = inFirst ? first : second
            let at = inFirst ? matched : matched - first.count
            let count = min(piece.count - offset, text.count - at)
            guard count > 0, let mine = piece.baseAddress, let theirs = text.baseAddress,
                memcmp(mine + offset, theirs + at, count) == 0
            else {
                equal = false
                return
            }
            offset += count
            matched += count
        }
    }
}

extension TodoTxtFormat {
    /// The task a line holds (its id still to be given), its `id:` tag if any, and what the
    /// line left unsaid. `line`: the line's bytes, trimmed, not empty.
    static func task(from line: UnsafeBufferPointer<UInt8>, now: Date) -> Line {
        let words = TodoTxtLineWords(bytes: line)
        var completed = false
        var completedAt: Date?
        var createdAt: Date?
        var topPriority = false
        var prioritySaid = false
        var letter: Character?
        // The marks at the start: `x` and its dates, or a priority and a creation date.
        let head = words.first(3)
        var marks = 0
        // Lengths first: a word of 50 MB is not made a String to be told it is no mark.
        func dateWord(_ at: Int) -> Date? { at < head.count && head[at].count == 10 ? date(from: words.text(head[at])) : nil }
        if let first = head.first, first.count == 1, line[first.lowerBound] == UInt8(ascii: "x") {
            completed = true
            marks = 1
            if let date = dateWord(1) {
                completedAt = date
                marks = 2
                if let created = dateWord(2) {
                    createdAt = created
                    marks = 3
                }
            }
        } else {
            if let first = head.first, first.count == 3, let said = priority(from: words.text(first)) {
                topPriority = said == "A"
                prioritySaid = true
                letter = said
                marks = 1
            }
            if let created = dateWord(marks) {
                createdAt = created
                marks += 1
            }
        }
        let rest = marks == 0 ? 0 : head[marks - 1].upperBound
        // One pass over the rest for the words rules read: `pri:X` (the first), `id:` (the last),
        // `due:` and `rec:` (the first of each), the tags, and how many words show something.
        var count = 0
        var visible = 0
        var pri: Range<Int>?
        var idTag: Range<Int>?
        var dueTag: Range<Int>?
        var recTag: Range<Int>?
        var tags: [String] = []
        var tagsSeen = Set<String>()
        words.forEach(from: rest) { word in
            count += 1
            if words.isTag(word) {
                if let tag = tag(from: words.text(word)), tagsSeen.insert(tag).inserted { tags.append(tag) }
                return
            }
            if words.isVisible(word) { visible += 1 }
            if pri == nil, words.starts(word, with: "pri:"), words.text(word).count == 5 {
                pri = word
            } else if words.starts(word, with: "id:"), TaskList.isIDPrefix(String(words.text(word).dropFirst(3))) {
                idTag = word
            } else if dueTag == nil, word.count == 14, words.starts(word, with: "due:") {
                dueTag = word
            } else if recTag == nil, words.starts(word, with: "rec:") {
                recTag = word
            }
        }
        // `pri:X` is where a completed task keeps its priority.
        var leftOut = Set<Int>()
        if let pri {
            let text = words.text(pri)
            topPriority = text == "pri:A"
            prioritySaid = true
            letter = text.last.flatMap { ("A"..."Z").contains($0) ? $0 : nil }
            leftOut.insert(pri.lowerBound)
        }
        var idPrefix: String?
        if let idTag {
            idPrefix = String(words.text(idTag).dropFirst(3)).lowercased()
            leftOut.insert(idTag.lowerBound)
        }
        // The line's words after its marks, as they came: the caption and tags in their order.
        // What the line says after them, as it came, is the words from `rest` without these:
        // compared and kept by the carried record (`lineTask`), never made here.
        let bodyLeftOut = leftOut
        // `due:YYYY-MM-DD` (the todo.txt add-on convention) is the due date, not caption, unless
        // it is all the line says (as `DueWord` reads typed text).
        var due: DueDate?
        if let dueTag, count - leftOut.count > 1, let day = DueDate(text: String(words.text(dueTag).dropFirst(4))), day.isDay {
            due = day
            leftOut.insert(dueTag.lowerBound)
        }
        // The words as an older HotTask took them (its `rec:` and tags in the caption).
        let olderLeftOut = leftOut
        // `rec:1w`, `rec:+1m` (`TodoTxtRecurrence`): the repeat rule, unless it is all the line
        // says. A repeating task needs a due date: without one it takes today, as `--repeat` gives.
        var repeatRule = RepeatRule.none
        var dueAssumed = false
        if count - leftOut.count > 1, let recTag, let rule = TodoTxtRecurrence.rule(from: Substring(words.text(recTag))) {
            repeatRule = rule
            leftOut.insert(recTag.lowerBound)
            if due == nil {
                due = rule.first(onOrAfter: DueDate.localDay(of: now, in: .current))
                dueAssumed = true
            }
        }
        // `+project` and `@context`: tags, unless nothing else is left for a caption (every word
        // left out above shows something).
        if visible - leftOut.count == 0 { tags = [] }
        // The line's text kept as it came (`CaptionRule.kept`); a line of only its marks is a
        // task without a title, as an untitled to-do from a phone exports.
        // Where the older reading says more (tags, `rec:`), it is known by its digest only, made
        // before the caption: a line of 50 MB is held once as its caption, not twice.
        let saysMore = !tags.isEmpty || !repeatRule.isNone
        let captionWithTags = saysMore ? words.digest(from: rest, leavingOut: olderLeftOut, tags: false) : nil
        let caption = words.joined(from: rest, leavingOut: leftOut, tags: !tags.isEmpty)
        let created = createdAt ?? completedAt ?? now
        let finished = completed ? max(completedAt ?? created, created) : nil
        let task = TaskItem(
            id: UUID(), caption: caption, section: topPriority ? .priority : .bonus, completed: completed,
            createdAt: created, completedAt: finished, modifiedAt: finished ?? created, due: due,
            tags: TagRule.cleanKeeping(tags).tags, repeatRule: repeatRule)
        // An open line without a priority says "Bonus"; a completed one says nothing.
        return (
            task, idPrefix, createdAt == nil && completedAt == nil, completed && !prioritySaid, letter, createdAt == nil, captionWithTags,
            (rest, bodyLeftOut), dueAssumed
        )
    }
}
