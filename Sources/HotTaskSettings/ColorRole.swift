/// What the config's `[colors]` table names: each role colours some styles' text or background.
public enum ColorRole: String, CaseIterable, Sendable {
    /// Task captions and typed text.
    case text
    /// Completed tasks.
    case done
    /// The selection bar (a background).
    case selection
    /// Text on the selection bar.
    case selectionText = "selection_text"
    case header
    /// The title bar and the active sort (a background).
    case title
    /// The prompt, the keys in the footer and the help.
    case accent
    case due
    case dueToday = "due_today"
    case overdue
    /// What the filter matched.
    case match
    /// Placeholders, the footer's words, details, inactive sort labels.
    case hint
    case info, warning, error
    /// The progress gauge's filled part.
    case gauge

    /// The config's name for the role.
    package var name: String { rawValue }
}
