import FoundationEssentials
import Glibc
import HotTaskCore

/// A bracketed paste: text for the line that has focus, never keys.
extension AppUpdate {
    /// The most a line takes from one paste: what a caption may hold. More would only be
    /// refused at Enter, and a line of a million characters makes every key slow.
    static let pasteLimit = CaptionRule.maximumLength

    /// Pastes into the line that has focus (the new-task input when the list has it). Line
    /// breaks become one space each, tabs spaces, controls nothing, so a multi-line paste is
    /// one line and nothing is added until Enter. A paste longer than the line may take is cut
    /// here, and the footer says so: never a silent cut. `cutBefore`: the decoder already
    /// dropped the end of a very long paste.
    static func paste(_ text: String, cutBefore: Bool, _ state: inout AppState) {
        state.help = nil
        state.confirmation = nil  // a paste is not a "y"
        // The views have no text to paste into.
        guard state.focus != .history, state.focus != .calendar else { return }
        let line = CaptionRule.cleanFragment(oneLine(text))
        if state.focus == .list { state.focus = .input }
        let present: Int
        switch state.focus {
        case .filter: present = state.filter.characters.count
        case .editing, .due, .repeating, .listing: present = state.editor.characters.count
        case .input, .list, .history, .calendar: present = state.input.characters.count
        }
        let room = max(0, pasteLimit - present)
        var kept = line
        if cutBefore || line.count > room {
            kept = String(line.prefix(room))
            state.message = cutNotice(kept: kept.count)
        }
        switch state.focus {
        case .filter:
            state.filter.insert(contentsOf: kept)
            applyFilter(&state)
        case .editing, .due, .repeating, .listing:
            state.editor.insert(contentsOf: kept)
        case .input, .list, .history, .calendar:
            state.input.insert(contentsOf: kept)
        }
    }

    /// Every run of line breaks (CRLF, CR, LF, and the Unicode ones) as one space. A run, not
    /// each break: tmux turns a pasted CRLF into CR CR, which is still one line break.
    static func oneLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var inBreak = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r", "\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                if !inBreak { result.append(" ") }
                inBreak = true
            default:
                result.append(scalar)
                inBreak = false
            }
        }
        return String(result)
    }

    /// What the footer says about a cut paste, in wordings for every width.
    private static func cutNotice(kept: Int) -> Message {
        let count = "\(kept)"
        let limit = "\(pasteLimit)"
        return Message(
            "Paste cut: only its first \(count) characters were kept (a task holds at most \(limit))",
            kind: .warning,
            shorter: ["Paste cut: only its first \(count) characters were kept", "Paste cut to \(count) characters", "Paste cut"])
    }
}
