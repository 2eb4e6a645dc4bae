/// Why a tag was refused.
public enum TagError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but whitespace, control characters or a "+".
    case empty
    /// Longer than `StoreLimits.tagCharacters`.
    case tooLong(String)
    /// More than `StoreLimits.tagsPerTask` on one task.
    case tooMany(Int)

    public var description: String {
        switch self {
        case .empty: "a tag needs a word: it is empty"
        case .tooLong(let tag): "the tag “\(tag.prefix(20))…” is longer than \(StoreLimits.tagCharacters) characters"
        case .tooMany(let count): "a task holds at most \(StoreLimits.tagsPerTask) tags, not \(count)"
        }
    }
}

/// The rule every tag passes, and the `+word` syntax that makes one from a new task's text.
///
/// A tag is a word or a few: escape sequences, control characters and the bidirectional
/// overrides are dropped, runs of whitespace become one space (a calendar's category may hold
/// one), a leading `+` goes (it is how a tag is written, not part of it), and what is left is 1
/// to `StoreLimits.tagCharacters` characters. A todo.txt `@context` keeps its `@`. A task holds
/// at most `StoreLimits.tagsPerTask` tags, each once, in the order given.
public enum TagRule {
    public static func clean(_ raw: String) throws(TagError) -> String {
        let cleaned = CaptionRule.cleanFragment(raw).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let tag = cleaned.hasPrefix("+") ? String(cleaned.dropFirst()).trimmingWhitespace() : cleaned
        guard tag.unicodeScalars.contains(where: CaptionRule.isVisible) else { throw .empty }
        guard tag.count <= StoreLimits.tagCharacters else { throw .tooLong(tag) }
        return tag
    }

    /// Tags in the order given, each once (the first of equal ones), at most the limit.
    public static func cleanAll(_ raw: [String]) throws(TagError) -> [String] {
        var tags: [String] = []
        for tag in raw {
            let clean = try clean(tag)
            if !tags.contains(clean) { tags.append(clean) }
        }
        guard tags.count <= StoreLimits.tagsPerTask else { throw .tooMany(tags.count) }
        return tags
    }

    /// Tags from another program (an import, a calendar), which are never refused: those that
    /// do not pass are left out, and so is any past the limit. `dropped`: how many.
    static func cleanKeeping(_ raw: [String]) -> (tags: [String], dropped: Int) {
        var tags: [String] = []
        var dropped = 0
        for tag in raw {
            guard let clean = try? clean(tag), tags.count < StoreLimits.tagsPerTask else {
                dropped += 1
                continue
            }
            if !tags.contains(clean) { tags.append(clean) }
        }
        return (tags, dropped)
    }

    /// Tags read back from the store or its log: as written (each passed `clean`), checked.
    static func cleanStored(_ raw: [String]) throws(TagError) -> [String] {
        if raw.count <= StoreLimits.tagsPerTask, raw.allSatisfy({ (try? clean($0)) == $0 }), Set(raw).count == raw.count { return raw }
        return try cleanAll(raw)
    }

    // MARK: +word

    /// `isTagName` for a word of ASCII alone, from its bytes (Unicode's properties cost most of
    /// reading a todo.txt line full of `+words`); nil for any other word.
    private static func asciiTagName(_ utf8: some Collection<UInt8>) -> Bool? {
        func letter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        func digit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var count = 0
        var first: UInt8 = 0
        var last: UInt8 = 0
        var allowed = true
        for byte in utf8 {
            guard byte < 0x80 else { return nil }
            if count == 0 { first = byte }
            last = byte
            count += 1
            // Longer than a tag in any case (CR LF, one character of two bytes, is no tag's).
            if count > StoreLimits.tagCharacters { return false }
            let punctuation = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            if !(letter(byte) || digit(byte) || punctuation) { allowed = false }
        }
        return allowed && count > 0 && letter(first) && (letter(last) || digit(last))
    }

    /// Whether `word` (without its `+`) is a tag name as `+word` writes one: a letter first,
    /// then letters, digits, marks and `-` `_` `.` `:`, ending in a letter, digit or mark. So
    /// `+work`, `+v1.2`, `+project:Home.Garden` and `+café` are tags; `+1`, `C++`, `+44 20`,
    /// `+bob@example.com`, `+https://example.com` and `+done.` are not.
    public static func isTagName<Name: StringProtocol>(_ word: Name) -> Bool {
        if let ascii = asciiTagName(word.utf8) { return ascii }
        guard let first = word.unicodeScalars.first, first.properties.isAlphabetic, let last = word.unicodeScalars.last,
            word.count <= StoreLimits.tagCharacters
        else { return false }
        guard last.properties.isAlphabetic || last.properties.numericType != nil || last.properties.generalCategory == .nonspacingMark
        else { return false }
        return word.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "-", "_", ".", ":": return true
            default:
                let properties = scalar.properties
                return properties.isAlphabetic || properties.numericType != nil
                    || [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory)
            }
        }
    }

    /// A new task's text with its `+word` and `@word` words taken out as tags: `Buy milk +shop
    /// @town` is the caption "Buy milk" tagged `shop` and `@town` (a context, as todo.txt writes
    /// one; it keeps its `@`). A word is one only where it starts (after a space or at the
    /// start), so an e-mail address stays text; `\+word` and `\@word` keep it as text (the
    /// backslash gone). When nothing but tags is left, the text stays as it was and has no tags
    /// (a task needs a caption). Words are joined by single spaces where tags were taken out.
    public static func takingTags(from text: String) -> (caption: String, tags: [String]) {
        guard text.contains("+") || text.contains("@") else { return (text, []) }
        var kept: [Substring] = []
        var tags: [String] = []
        var escaped = false
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if let tag = tagWritten(word) {
                if !tags.contains(tag) { tags.append(tag) }
            } else if word.hasPrefix("\\"), tagWritten(word.dropFirst()) != nil {
                kept.append(word.dropFirst())
                escaped = true
            } else {
                kept.append(word)
            }
        }
        guard !tags.isEmpty || escaped else { return (text, []) }
        let caption = kept.filter { !$0.isEmpty }.joined(separator: " ")
        guard tags.isEmpty || caption.unicodeScalars.contains(where: CaptionRule.isVisible) else { return (text, []) }
        return (caption, Array(tags.prefix(StoreLimits.tagsPerTask)))
    }

    /// The tag a `+word` or `@word` word writes (`work`, `@phone`); nil for any other word.
    static func tagWritten(_ word: Substring) -> String? {
        if word.hasPrefix("+"), isTagName(word.dropFirst()) { return String(word.dropFirst()) }
        if word.hasPrefix("@"), isTagName(word.dropFirst()) { return String(word) }
        return nil
    }

    /// A caption written so that `takingTags` gives it back: a word that would be taken for a
    /// tag gets a backslash (the caption editor shows the caption so, with the tags after it).
    public static func escapingTagWords(_ caption: String) -> String {
        guard caption.contains("+") || caption.contains("@") else { return caption }
        return caption.split(separator: " ", omittingEmptySubsequences: false)
            .map { tagWritten($0) != nil ? "\\" + $0 : String($0) }.joined(separator: " ")
    }

    /// How a tag is written after a caption and in `+word` text: `+work`, a todo.txt context
    /// as it came (`@phone`), and one with a space quoted (`+"Grocery list"`).
    public static func label(_ tag: String) -> String {
        if tag.hasPrefix("@") { return tag }
        return tag.contains(" ") ? "+\"" + tag + "\"" : "+" + tag
    }

    /// The tags as `+word` text: what the caption editor shows after the caption. Only tags
    /// `takingTags` reads back are written (`written`); the others stay as they are.
    public static func words(for tags: [String]) -> (text: String, unwritten: [String]) {
        var written: [String] = []
        var unwritten: [String] = []
        for tag in tags {
            if isTagName(tag) {
                written.append("+" + tag)
            } else if tag.hasPrefix("@"), isTagName(tag.dropFirst()) {
                written.append(tag)
            } else {
                unwritten.append(tag)
            }
        }
        return (written.joined(separator: " "), unwritten)
    }
}
