import HotTaskCore
import HotTaskSettings

/// Tab at the end of a `+word` (in the new-task input, the caption editor) or of a filter's
/// `+tag`, `-tag` or `@context`: the tags in use that start so (case and accents ignored). One
/// is written whole with a space after it; of several, what they all start with, and the footer
/// names them; Tab again right after takes the next in turn (never the list). Tab anywhere else
/// does what it always did.
enum TagCompletion {
    /// What Tab did.
    enum Outcome: Equatable {
        /// Not at a tag's word: Tab keeps its usual meaning.
        case notATag
        case completed
        /// Several tags start so: these (the footer shows them).
        case several([String])
        case none(String)
        /// Tab again right after a completion: the next word in turn (`index` of `count`).
        case cycled(word: String, index: Int, count: Int)
    }

    /// What a completion offered, kept from one Tab to the next so that Tab again takes the next
    /// word in turn, as a shell's menu completion does, and never moves the keys to the list (a
    /// second Tab, a shell habit, did: the typing after it ran list commands). Any other key
    /// drops it.
    struct Cycle: Equatable, Sendable {
        /// Where the completed word starts in the line.
        let start: Int
        /// The words offered, as written (`+garden`, `@phone`, `due:week`).
        let words: [String]
        /// The one written last; nil while only what they all start with is.
        var shown: Int?
        /// A space was written after the word: a space typed next is not doubled.
        var spaced: Bool
        /// The line's text and cursor as the completion left them: a cycle applies to that
        /// line only (not to another prompt's, nor to one changed since).
        var line: String = ""
        var cursor = 0

        func applies(to editor: LineEditor) -> Bool { editor.text == line && editor.cursor == cursor }
    }

    /// The filter's due words, completed after `due:`.
    static let dueWords = TaskFilter.Query.Due.allCases.map { "due:" + $0.rawValue }

    /// `filter`: the filter's words (`-tag`, `@context`, `due:`) too, not only `+word`. `cycle`:
    /// what the Tab just before offered, if the key before this one was that Tab.
    static func complete(_ editor: inout LineEditor, tags: [String], filter: Bool, after cycle: Cycle?) -> (Outcome, Cycle?) {
        var (outcome, next) = offer(&editor, tags: tags, filter: filter, after: cycle)
        next?.line = editor.text
        next?.cursor = editor.cursor
        return (outcome, next)
    }

    private static func offer(_ editor: inout LineEditor, tags: [String], filter: Bool, after cycle: Cycle?) -> (Outcome, Cycle?) {
        if var cycle, !cycle.words.isEmpty, cycle.applies(to: editor) {
            let next = cycle.shown.map { ($0 + 1) % cycle.words.count } ?? 0
            editor.replaceWord(from: cycle.start, with: cycle.words[next] + " ")
            cycle.shown = next
            cycle.spaced = true
            return (.cycled(word: cycle.words[next], index: next, count: cycle.words.count), cycle)
        }
        guard let (start, word) = editor.wordAtCursor else { return (.notATag, nil) }
        let offered: (partial: String, words: [String])
        if filter, word.lowercased().hasPrefix("due:") {
            offered = (word, dueWords.filter { $0.starts(with: word.lowercased()) })
        } else {
            let sigils = filter ? ["+@", "-@", "+", "-", "@"] : ["+"]
            guard let sigil = sigils.first(where: { word.hasPrefix($0) }) else { return (.notATag, nil) }
            // A context keeps its @ in the tag: "+@ph" and "@ph" look for "@ph…".
            let keep = sigil.hasSuffix("@") ? "@" : ""
            let lead = sigil == "@" ? "" : String(sigil.prefix(1))
            let partial = keep + word.dropFirst(sigil.count)
            // Only tags a word can name (`+Grocery list` cannot be typed).
            let named = tags.filter { TagRule.isTagName($0.hasPrefix("@") ? String($0.dropFirst()) : $0) }
            let folded = TaskFilter.foldedBytes(partial)
            offered = (partial, named.filter { TaskFilter.foldedBytes($0).starts(with: folded) }.map { lead + $0 })
        }
        let words = offered.words
        guard let first = words.first else { return (.none(offered.partial), nil) }
        if words.count == 1 {
            editor.replaceWord(from: start, with: first + " ")
            return (.completed, Cycle(start: start, words: words, shown: 0, spaced: true))
        }
        // What they all start with (as the first spells it), when that is more than typed.
        var common = Array(first)
        for other in words.dropFirst() {
            let folded = Array(other.lowercased())
            var length = 0
            while length < common.count, length < folded.count, String(common[length]).lowercased() == String(folded[length]) { length += 1 }
            common = Array(common.prefix(length))
        }
        if common.count > word.count { editor.replaceWord(from: start, with: String(common)) }
        return (.several(words), Cycle(start: start, words: words, shown: nil, spaced: false))
    }

    /// The footer's line for an outcome.
    static func message(_ outcome: Outcome) -> Message? {
        switch outcome {
        case .notATag, .completed:
            return nil
        case .cycled(let word, _, 1):
            return Message("Only \(word) starts so; Tab again keeps it", shorter: ["Only \(word) starts so"])
        case .cycled(let word, let index, let count):
            return Message("Tab: \(word) (\(index + 1) of \(count))")
        case .several(let names):
            return Message(
                "Tab: " + names.prefix(12).joined(separator: " ") + (names.count > 12 ? " …" : ""),
                shorter: ["\(names.count) \(names[0].hasPrefix("due:") ? "words" : "tags") start so"])
        case .none(let partial) where partial.lowercased().hasPrefix("due:"):
            return Message("No due word starts with “\(partial)”: \(TaskFilter.Query.dueForms)", kind: .warning, shorter: ["No such due word"])
        case .none(let partial):
            return Message("No tag starts with “\(partial)”", kind: .warning, shorter: ["No such tag"])
        }
    }
}

extension AppUpdate {
    /// Tab in a line that completes: the completion, or the next word in turn right after one.
    /// Returns nil when the cursor is at no word to complete (Tab keeps its usual meaning).
    static func completeTag(
        _ line: WritableKeyPath<AppState, LineEditor>, filter: Bool, _ state: inout AppState
    ) -> TagCompletion.Outcome? {
        let (outcome, cycle) = TagCompletion.complete(
            &state[keyPath: line], tags: state.tasks.tagsInUse, filter: filter, after: state.tabCycle)
        state.tabCycle = cycle
        guard outcome != .notATag else { return nil }
        state.message = TagCompletion.message(outcome)
        return outcome
    }

    /// A space typed right after a completion that wrote one is that space, not a second.
    static func isCompletionsOwnSpace(_ key: Key, _ state: AppState) -> Bool {
        guard key == .character(" "), let cycle = state.tabCycle, cycle.spaced else { return false }
        switch state.focus {
        case .input: return cycle.applies(to: state.input)
        case .filter: return cycle.applies(to: state.filter)
        case .editing: return cycle.applies(to: state.editor)
        default: return false
        }
    }
}
