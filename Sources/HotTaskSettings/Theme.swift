/// The colour scheme the terminal adapter uses for cell styles. The UI only names it: the
/// palettes are `ColorScheme`'s, and the adapter turns them into the terminal's colours.
public enum Theme: String, CaseIterable, Sendable {
    /// The dark or the light palette, by the background the terminal reports at start (OSC 11,
    /// else `COLORFGBG`); when it says nothing, the terminal's own colours for text.
    case auto
    /// For a dark background.
    case dark
    /// For a light background.
    case light
    /// Attributes only (bold, dim, reverse, underline), as with NO_COLOR.
    case mono

    /// The config's names for themes: `default` is the dark theme's name before `auto`.
    static func named(_ name: String) -> Theme? {
        name == "default" ? .dark : Theme(rawValue: name)
    }
}
