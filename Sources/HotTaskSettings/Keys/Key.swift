/// A key as the UI understands it, independent of how the terminal encodes it.
public enum Key: Equatable, Hashable, Sendable {
    /// Printable text (one Unicode scalar at a time from the terminal, or a whole character).
    case character(Character)
    /// Ctrl plus a letter, given in lower case (`.control("c")` is Ctrl-C).
    case control(Character)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// Shift-↑ and Shift-↓.
    case shiftUp, shiftDown
    /// Ctrl-← and Ctrl-→ (or Alt-←/→): a word left or right in a line editor.
    case wordLeft, wordRight
    /// Alt (Meta) with a character: `ESC b` is `.alt("b")`. Never typed as text.
    case alt(Character)
    /// Alt-Backspace (`ESC DEL`): a word back, in a line editor.
    case altBackspace
    case function(Int)
}
