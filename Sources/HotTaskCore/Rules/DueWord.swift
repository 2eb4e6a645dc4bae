import Foundation

/// A `due:YYYY-MM-DD` word in typed text (the app's input and editor, `--add`, `--edit`) is
/// the task's due date, as todo.txt reads it: the caption keeps the rest of the text. So a
/// task typed as `Pay rent due:2026-12-01` goes out to todo.txt and comes back the same task,
/// and other todo.txt apps see the same due date HotTask does.
///
/// Only that form (one word, a real day) and only beside other words: `due:tomorrow`, `due:`
/// on its own and a caption that is nothing but the word stay text. Text from a file or a
/// server is never read this way (it is kept as it came).
public enum DueWord {
    /// The caption without its first `due:YYYY-MM-DD` word (and the space before it, or after
    /// it at the start), and that day; the caption as it is and nil when it has none.
    public static func taken(from caption: String) -> (caption: String, due: DueDate?) {
        guard caption.utf8.count > 14, caption.contains("due:") else { return (caption, nil) }
        var start = caption.startIndex
        while let found = caption.range(of: "due:", range: start..<caption.endIndex) {
            start = found.upperBound
            // A word of its own: at the start or after a space, and ending at a space or the end.
            guard found.lowerBound == caption.startIndex || caption[caption.index(before: found.lowerBound)] == " " else { continue }
            guard let wordEnd = caption.index(found.upperBound, offsetBy: 10, limitedBy: caption.endIndex),
                wordEnd == caption.endIndex || caption[wordEnd] == " ",
                let day = DueDate(text: String(caption[found.upperBound..<wordEnd])), day.isDay
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
            return (rest, day)
        }
        return (caption, nil)
    }
}
