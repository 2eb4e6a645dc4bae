/// The colour scheme the terminal adapter uses for cell styles. The UI only names it: what a
/// theme looks like is decided in the adapter's palette, next to the colours themselves.
public enum Theme: String, CaseIterable, Sendable {
    /// Colours for a dark background (HotTask's original look).
    case `default`
    /// Colours readable on a light background.
    case light
    /// Attributes only (bold, dim, reverse, underline), as with NO_COLOR.
    case mono
}
