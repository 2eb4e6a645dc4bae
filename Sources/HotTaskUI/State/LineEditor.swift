/// The new-task input: its text and cursor. Lives in the state, so nothing typed is ever
/// only in a widget.
public struct LineEditor: Equatable, Sendable {
    private(set) var characters: [Character] = []
    /// Index into `characters`: the cursor stands before that character.
    private(set) var cursor = 0
    /// The first character shown when the line is wider than its field. It moves only as far
    /// as the cursor needs (`follow`), so the text does not jump while the cursor moves.
    private(set) var viewStart = 0
    /// Ctrl-_: the line before each edit.
    private(set) var undoSteps = LineUndo()
    /// The whole line is selected (the due prompt's old date): typing or pasting replaces it,
    /// ⌫ or Del clears it, and any other key unselects it before it acts.
    private(set) var isAllSelected = false

    public init(_ text: String = "", selected: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        isAllSelected = selected && !characters.isEmpty
    }

    /// Clears a selected line as one step Ctrl-_ undoes; false when nothing was selected.
    private mutating func clearSelection() -> Bool {
        guard isAllSelected else { return false }
        isAllSelected = false
        saveStep()
        undoSteps.last = nil
        characters = []
        cursor = 0
        viewStart = 0
        return true
    }

    var text: String { String(characters) }
    var isEmpty: Bool { characters.isEmpty }

    /// Inserts at the cursor. A scalar that extends the character before it (a combining
    /// accent, a ZWJ emoji part, a variation selector, the second half of a flag) joins it,
    /// because the terminal delivers such characters one scalar at a time.
    mutating func insert(_ character: Character) {
        _ = clearSelection()
        // A new word starts a new undo step.
        let newWord = cursor > 0 && characters[cursor - 1].isWhitespace && !character.isWhitespace
        if undoSteps.last != .typing || newWord { saveStep() }
        undoSteps.last = .typing
        if cursor > 0 {
            let joined = String(characters[cursor - 1]) + String(character)
            if joined.count == 1, let combined = joined.first {
                characters[cursor - 1] = combined
                return
            }
        }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    /// Inserts pasted text at the cursor in one step (a paste can be thousands of characters:
    /// inserting them one by one would shift the rest of the line each time).
    mutating func insert(contentsOf text: String) {
        guard !text.isEmpty else { return }
        _ = clearSelection()
        saveStep()
        undoSteps.last = .other
        // The character before the cursor takes part, so that a pasted accent joins it.
        let start = cursor > 0 ? cursor - 1 : 0
        let joined = Array(String(characters[start..<cursor]) + text)
        characters.replaceSubrange(start..<cursor, with: joined)
        cursor = start + joined.count
    }

    mutating func deleteBackward() {
        if clearSelection() { return }
        guard cursor > 0 else { return }
        startDeleting()
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    mutating func deleteForward() {
        if clearSelection() { return }
        guard cursor < characters.count else { return }
        startDeleting()
        characters.remove(at: cursor)
    }

    /// ←: on a selected line, to the start of the selection, as a text field does; stepping
    /// back from its end put the cursor inside the old date, as if it were split.
    mutating func moveLeft() { moved(isAllSelected ? 0 : max(0, cursor - 1)) }
    mutating func moveRight() { moved(min(characters.count, cursor + 1)) }
    mutating func moveToStart() { moved(0) }
    mutating func moveToEnd() { moved(characters.count) }

    /// Ctrl-← or Alt-b: to the start of this word, or of the one before.
    mutating func moveWordLeft() { moved(wordStartBefore()) }

    /// Ctrl-→ or Alt-f: to the end of this word, or of the one after.
    mutating func moveWordRight() { moved(wordEndAfter()) }

    /// A click: the cursor to the character at `column` of a field `width` columns wide, as
    /// the field shows the line now (or to the end, right of the text).
    mutating func place(atColumn column: Int, width: Int) {
        let window = follow(width: width)
        var x = window.clippedLeft ? 1 : 0
        var position = window.start
        while position < characters.count {
            let next = x + DisplayWidth.of(characters[position])
            // A click on a character's right half puts the cursor after it.
            if column < x + (next - x + 1) / 2 { break }
            x = next
            position += 1
        }
        moved(position)
    }

    private mutating func moved(_ position: Int) {
        isAllSelected = false
        cursor = position
        undoSteps.last = nil
    }

    /// Where Ctrl-←, Ctrl-W and Alt-Backspace stop: words are runs of non-spaces, as the
    /// shell's Ctrl-W sees them (a caption's "e-mail" or "14:30" is one word).
    private func wordStartBefore() -> Int {
        var position = cursor
        while position > 0, characters[position - 1].isWhitespace { position -= 1 }
        while position > 0, !characters[position - 1].isWhitespace { position -= 1 }
        return position
    }

    private func wordEndAfter() -> Int {
        var position = cursor
        while position < characters.count, characters[position].isWhitespace { position += 1 }
        while position < characters.count, !characters[position].isWhitespace { position += 1 }
        return position
    }

    // MARK: Kills, yank and undo

    /// Ctrl-K: deletes from the cursor to the end, into `killed`.
    mutating func deleteToEnd(killed: inout String) {
        kill(cursor..<characters.count, forward: true, into: &killed)
    }

    /// Ctrl-U: deletes from the start to the cursor, into `killed`.
    mutating func deleteToStart(killed: inout String) {
        kill(0..<cursor, forward: false, into: &killed)
    }

    /// Ctrl-W and Alt-Backspace: deletes the word before the cursor and the spaces after it.
    mutating func deleteWordBackward(killed: inout String) {
        kill(wordStartBefore()..<cursor, forward: false, into: &killed)
    }

    /// Alt-d: deletes to the end of this word, or of the next one.
    mutating func deleteWordForward(killed: inout String) {
        kill(cursor..<wordEndAfter(), forward: true, into: &killed)
    }

    /// Removes `range` and keeps it for Ctrl-Y. Kills in a row make one text, in the order
    /// it stood (Ctrl-W Ctrl-W then Ctrl-Y gives back both words), as readline does.
    private mutating func kill(_ range: Range<Int>, forward: Bool, into killed: inout String) {
        isAllSelected = false
        guard !range.isEmpty else { return }
        let text = String(characters[range])
        switch undoSteps.last {
        case .killForward?, .killBackward?: killed = forward ? killed + text : text + killed
        default: killed = text
        }
        saveStep()
        undoSteps.last = forward ? .killForward : .killBackward
        characters.removeSubrange(range)
        cursor = range.lowerBound
    }

    /// Ctrl-Y: puts the last killed text back at the cursor.
    /// The word the cursor ends (a run of non-spaces just before it, with a space or the end
    /// after it), and where it starts; nil when the cursor is not at the end of a word.
    var wordAtCursor: (start: Int, text: String)? {
        guard cursor > 0, !characters[cursor - 1].isWhitespace, cursor == characters.count || characters[cursor].isWhitespace
        else { return nil }
        let start = wordStartBefore()
        return (start, String(characters[start..<cursor]))
    }

    /// The word from `start` to the cursor replaced by `text`, as one step Ctrl-_ undoes (Tab's
    /// completion).
    mutating func replaceWord(from start: Int, with text: String) {
        isAllSelected = false
        saveStep()
        undoSteps.last = .other
        let replacement = Array(text)
        characters.replaceSubrange(start..<cursor, with: replacement)
        cursor = start + replacement.count
    }

    mutating func yank(_ killed: String) {
        insert(contentsOf: killed)
    }

    /// Ctrl-_: the line as it was before the last edit. False when there is nothing to undo.
    @discardableResult
    mutating func undo() -> Bool {
        isAllSelected = false
        guard let snapshot = undoSteps.pop() else { return false }
        characters = snapshot.characters
        cursor = min(snapshot.cursor, characters.count)
        return true
    }

    private mutating func saveStep() {
        undoSteps.push(characters, cursor: cursor)
    }

    private mutating func startDeleting() {
        if undoSteps.last != .deleting { saveStep() }
        undoSteps.last = .deleting
    }

    /// What a field `width` columns wide shows: characters from `viewStart`, with "…" on the
    /// left when characters before are hidden and on the right when characters after are.
    struct Window: Equatable, Sendable {
        var start: Int
        var clippedLeft: Bool
        var clippedRight: Bool
        /// The cursor's column from the start of the field.
        var cursorColumn: Int
    }

    /// Moves `viewStart` only as far as needed for the cursor to be inside a field `width`
    /// columns wide (markers included), and returns what the field shows.
    @discardableResult
    mutating func follow(width: Int) -> Window {
        let width = max(1, width)
        viewStart = min(max(0, viewStart), cursor)
        func columns(_ range: Range<Int>) -> Int { characters[range].reduce(0) { $0 + DisplayWidth.of($1) } }
        // Running sums, each character's width taken once as the start moves: summing the
        // span again for every step froze the UI on a long paste.
        var before = columns(viewStart..<cursor)
        let rest = columns(cursor..<characters.count)
        // Columns the cursor needs from `start`: the marker, the text before it, its own cell,
        // and a marker on the right when text goes on past the field.
        func fits(_ start: Int) -> Bool {
            let left = start > 0 ? 1 : 0
            let right = left + before + max(1, rest) > width ? 1 : 0
            return left + before + 1 + right <= width
        }
        while viewStart < cursor, !fits(viewStart) {
            before -= DisplayWidth.of(characters[viewStart])
            viewStart += 1
        }
        // Text deleted or the field grew: show more on the left while everything to the end fits.
        while viewStart > 0 {
            let added = DisplayWidth.of(characters[viewStart - 1])
            guard (viewStart - 1 == 0 ? 0 : 1) + before + added + rest + 1 <= width else { break }
            before += added
            viewStart -= 1
        }
        let left = viewStart > 0 ? 1 : 0
        let shown = left + before + rest
        return Window(
            start: viewStart, clippedLeft: left == 1, clippedRight: shown + (cursor == characters.count ? 1 : 0) > width,
            cursorColumn: left + before)
    }

    /// Empties the line (a task added, a filter cleared); nothing before it is undone.
    mutating func clear() {
        characters.removeAll()
        cursor = 0
        viewStart = 0
        undoSteps = LineUndo()
    }
}
