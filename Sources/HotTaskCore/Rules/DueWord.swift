import Foundation

/// A `due:WORD` word in typed text (the app's input and editor, `--add`, `--edit`) is the
/// task's due date: WORD is any one-word form `--due` takes (`due:fri`, `due:tomorrow`,
/// `due:eom`, `due:3d`, `due:2026-12-01`, `due:2026-12-01T14:00`), read as of `now` in the zone
/// `local`. The caption keeps the rest of the text. So a task typed as `Pay rent
/// due:2026-12-01` goes out to todo.txt and comes back the same task.
///
/// Only beside other words: `due:` on its own, `due:none`, a word that is none of the forms
/// and a caption that is nothing but the word stay text. Text from a file or a server is never
/// read this way (it is kept as it came).
public enum DueWord {
    /// The caption without its first `due:WORD` word (and the space before it, or after it at
    /// the start), and that date; the caption as it is and nil when it has none.
    public static func taken(from caption: String, now: Date, local: TimeZone) -> (caption: String, due: DueDate?) {
        guard caption.contains("due:") else { return (caption, nil) }
        var start = caption.startIndex
        while let found = caption.range(of: "due:", range: start..<caption.endIndex) {
            start = found.upperBound
            // A word of its own: at the start or after a space, and ending at a space or the end.
            guard found.lowerBound == caption.startIndex || caption[caption.index(before: found.lowerBound)] == " " else { continue }
            let wordEnd = caption[found.upperBound...].firstIndex(of: " ") ?? caption.endIndex
            guard wordEnd > found.upperBound,
                case .success(.set(let date)) = DueInput.parse(String(caption[found.upperBound..<wordEnd]), now: now, local: local)
            else { continue }
            var cut = found.lowerBound..<wordEnd
            if cut.lowerBound > caption.startIndex {
                cut = caption.index(before: cut.lowerBound)..<cut.upperBound
            } else if wordEnd < caption.endIndex {
                cut = cut.lowerBound..<caption.index(after: wordEnd)
            }
            var rest = caption
            rest.removeSubrange(cut)
            guard CaptionRule.hasVisible(rest) else { return (caption, nil) }
            return (rest, date)
        }
        return (caption, nil)
    }
}
