import HotTaskCore

/// Tab at the end of a `+word` (in the new-task input, the caption editor) or of a filter's
/// `+tag`, `-tag` or `@context`: the tags in use that start so (case and accents ignored). One
/// is written whole with a space after it; of several, what they all start with, and the footer
/// names them. Tab anywhere else does what it always did.
enum TagCompletion {
    /// What Tab did.
    enum Outcome: Equatable {
        /// Not at a tag's word: Tab keeps its usual meaning.
        case notATag
        case completed
        /// Several tags start so: these (the footer shows them).
        case several([String])
        case none(String)
    }

    /// `filter`: the filter's words (`-tag`, `@context` too), not only `+word`.
    static func complete(_ editor: inout LineEditor, tags: [String], filter: Bool) -> Outcome {
        guard let (start, word) = editor.wordAtCursor else { return .notATag }
        let sigils = filter ? ["+@", "-@", "+", "-", "@"] : ["+"]
        guard let sigil = sigils.first(where: { word.hasPrefix($0) }) else { return .notATag }
        // A context keeps its @ in the tag: "+@ph" and "@ph" look for "@ph…".
        let keep = sigil.hasSuffix("@") ? "@" : ""
        let lead = sigil == "@" ? "" : String(sigil.prefix(1))
        let partial = keep + word.dropFirst(sigil.count)
        // Only tags a word can name (`+Grocery list` cannot be typed).
        let named = tags.filter { TagRule.isTagName($0.hasPrefix("@") ? String($0.dropFirst()) : $0) }
        let folded = TaskFilter.foldedBytes(partial)
        let matches = named.filter { TaskFilter.foldedBytes($0).starts(with: folded) }
        guard let first = matches.first else { return .none(partial) }
        if matches.count == 1 {
            editor.replaceWord(from: start, with: lead + first + " ")
            return .completed
        }
        // What they all start with (as the first spells it), when that is more than typed.
        var common = Array(first)
        for other in matches.dropFirst() {
            let folded = Array(other.lowercased())
            var length = 0
            while length < common.count, length < folded.count, String(common[length]).lowercased() == String(folded[length]) { length += 1 }
            common = Array(common.prefix(length))
        }
        if common.count > partial.count { editor.replaceWord(from: start, with: lead + String(common)) }
        return .several(matches.map { lead.isEmpty && $0.hasPrefix("@") ? $0 : (lead.isEmpty ? "+" : lead) + $0 })
    }

    /// The footer's line for an outcome.
    static func message(_ outcome: Outcome) -> Message? {
        switch outcome {
        case .notATag, .completed: nil
        case .several(let names):
            Message("Tab: " + names.prefix(12).joined(separator: " ") + (names.count > 12 ? " …" : ""), shorter: ["\(names.count) tags start so"])
        case .none(let partial): Message("No tag starts with “\(partial)”", kind: .warning, shorter: ["No such tag"])
        }
    }
}
