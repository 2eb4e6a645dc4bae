import HotTaskCore
import HotTaskSettings

/// The help overlay's keys: opening it, and scrolling it when it is taller than the screen.
extension AppUpdate {
    /// Opens the help overlay on `focus`'s keys, at its top.
    static func openHelp(_ focus: Focus, _ state: inout AppState) {
        state.help = focus
        state.helpScroll = 0
    }

    /// A key while the help is open: scrolls it when it is taller than the screen; false when
    /// the key is not a scrolling one (it then closes the help).
    static func scrollHelp(_ key: Key, _ state: inout AppState) -> Bool {
        guard let help = HelpLayout.of(state), help.maximumScroll > 0 else { return false }
        guard let scroll = scrolled(state.helpScroll, by: key, page: max(1, help.room - 1), last: help.maximumScroll) else { return false }
        state.helpScroll = scroll
        return true
    }

    /// The wheel over the help scrolls it.
    static func scrollHelp(lines: Int, _ state: inout AppState) {
        guard let help = HelpLayout.of(state) else { return }
        state.helpScroll = min(max(0, state.helpScroll + lines), help.maximumScroll)
    }
}
