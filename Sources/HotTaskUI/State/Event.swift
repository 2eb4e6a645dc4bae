import HotTaskCore

/// A key as the UI understands it, independent of how the terminal encodes it.
public enum Key: Equatable, Hashable, Sendable {
    /// Printable text (one Unicode scalar at a time from the terminal, or a whole character).
    case character(Character)
    /// Ctrl plus a letter, given in lower case (`.control("c")` is Ctrl-C).
    case control(Character)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// Shift-↑ and Shift-↓ (ncurses KEY_SR and KEY_SF).
    case shiftUp, shiftDown
    case function(Int)
}

/// Something that happened, named for what happened.
public enum Event: Equatable, Sendable {
    case keyPressed(Key)
    case resized(Size)
    /// The mouse wheel: negative scrolls up.
    case wheelScrolled(lines: Int)
    case saveFailed(reason: String)
    case saveSucceeded
    /// Another process changed the store; this is the list to show now (our unsaved changes
    /// already merged in).
    case tasksChangedOutside(TaskList)
}

/// Work for the run loop: `update` only describes it, so every key can be tested as a value.
public enum Effect: Equatable, Sendable {
    /// Write this list to the store now.
    case save(TaskList)
    case quit
    /// Give the terminal back to the shell (Ctrl-Z); `fg` resumes.
    case suspend
    /// Repaint the whole screen (Ctrl-L).
    case redraw
}
