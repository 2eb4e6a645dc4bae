/// The new-task input: its text and cursor. Lives in the state, so nothing typed is ever
/// only in a widget.
public struct LineEditor: Equatable, Sendable {
    public private(set) var characters: [Character] = []
    /// Index into `characters`: the cursor stands before that character.
    public private(set) var cursor = 0
    /// The first character shown when the line is wider than its field. It moves only as far
    /// as the cursor needs (`follow`), so the text does not jump while the cursor moves.
    public private(set) var viewStart = 0

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }

    /// Inserts at the cursor. A scalar that extends the character before it (a combining
    /// accent, a ZWJ emoji part, a variation selector, the second half of a flag) joins it,
    /// because the terminal delivers such characters one scalar at a time.
    public mutating func insert(_ character: Character) {
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
    public mutating func insert(contentsOf text: String) {
        guard !text.isEmpty else { return }
        // The character before the cursor takes part, so that a pasted accent joins it.
        let start = cursor > 0 ? cursor - 1 : 0
        let joined = Array(String(characters[start..<cursor]) + text)
        characters.replaceSubrange(start..<cursor, with: joined)
        cursor = start + joined.count
    }

    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = characters.count }

    /// Ctrl-← or Alt-b: to the start of this word, or of the one before.
    public mutating func moveWordLeft() {
        while cursor > 0, characters[cursor - 1].isWhitespace { cursor -= 1 }
        while cursor > 0, !characters[cursor - 1].isWhitespace { cursor -= 1 }
    }

    /// Ctrl-→ or Alt-f: to the end of this word, or of the one after.
    public mutating func moveWordRight() {
        while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
        while cursor < characters.count, !characters[cursor].isWhitespace { cursor += 1 }
    }

    /// Ctrl-K: deletes from the cursor to the end.
    public mutating func deleteToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Ctrl-U: deletes from the start to the cursor.
    public mutating func deleteToStart() {
        characters.removeSubrange(..<cursor)
        cursor = 0
    }

    /// Ctrl-W: deletes the word before the cursor and the spaces after it.
    public mutating func deleteWordBackward() {
        let end = cursor
        moveWordLeft()
        characters.removeSubrange(cursor..<end)
    }

    /// What a field `width` columns wide shows: characters from `viewStart`, with "…" on the
    /// left when characters before are hidden and on the right when characters after are.
    public struct Window: Equatable, Sendable {
        public var start: Int
        public var clippedLeft: Bool
        public var clippedRight: Bool
        /// The cursor's column from the start of the field.
        public var cursorColumn: Int
    }

    /// Moves `viewStart` only as far as needed for the cursor to be inside a field `width`
    /// columns wide (markers included), and returns what the field shows.
    @discardableResult
    public mutating func follow(width: Int) -> Window {
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

    public mutating func clear() {
        characters.removeAll()
        cursor = 0
        viewStart = 0
    }
}
