import FoundationEssentials
import Glibc

/// A `due:WORD` word in typed text (the app's input and editor, `--add`, `--edit`) is the
/// task's due date: WORD is any form `--due` takes (`due:fri`, `due:tomorrow`, `due:eom`,
/// `due:3d`, `due:2026-12-01`, `due:2026-12-01T14:00`, and those of several words:
/// `due:dec 25`, `due:next fri`, `due:in 3 days`, `due:1 dec 2027`), read as of `now` in the
/// zone `local`, with a time of day after it if you like (`due:fri 17:30`). The caption keeps the
/// rest of the text. So a task typed as `Pay rent due:2026-12-01` goes out to todo.txt and
/// comes back the same task.
///
/// Only beside other words: `due:` on its own, `due:none`, a word that is none of the forms
/// and a caption that is nothing but the word stay text. Text from a file or a server is never
/// read this way (it is kept as it came).
public enum DueWord {
    /// The caption without its first `due:WORD` word (and the space before it, or after it at
    /// the start), and that date; the caption as it is and nil when it has none.
    public static func taken(from caption: String, now: Date, local: ZoneInfo) -> (caption: String, due: DueDate?) {
        guard caption.contains("due:") else { return (caption, nil) }
        var start = caption.startIndex
        while let found = caption[start...].firstRange(of: "due:") {
            start = found.upperBound
            // A word of its own: at the start or after a space, and ending at a space or the end.
            guard found.lowerBound == caption.startIndex || caption[caption.index(before: found.lowerBound)] == " " else { continue }
            guard let read = form(at: found.upperBound, in: caption, now: now, local: local) else { continue }
            var (date, wordEnd) = read
            // A time of day right after it belongs to it, as `--due "fri 17:30"` has it.
            if let (timed, end) = withTime(after: wordEnd, of: found.upperBound, in: caption, now: now, local: local) {
                date = timed
                wordEnd = end
            }
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

    /// The date `--due` reads from the words at `start`, and where they end: the most of the
    /// next four words that make a date (`due:fri`, `due:dec 25`, `due:in 3 days`,
    /// `due:1 dec 2027`: the fewest would stop before its year); nil when none do.
    private static func form(at start: String.Index, in caption: String, now: Date, local: ZoneInfo) -> (DueDate, String.Index)? {
        var end = start
        var longest: (DueDate, String.Index)?
        for _ in 0..<4 {
            if end > start {
                guard end < caption.endIndex else { break }
                end = caption.index(after: end)
            }
            end = caption[end...].firstIndex(of: " ") ?? caption.endIndex
            guard end > start else { break }
            if case .success(.set(let date)) = DueInput.parse(String(caption[start..<end]), now: now, local: local) { longest = (date, end) }
        }
        return longest
    }

    /// The date of the word at `start..<end` with the `H:MM` word after it, and that word's end;
    /// nil when the next word is no time or the two are no date together.
    private static func withTime(
        after end: String.Index, of start: String.Index, in caption: String, now: Date, local: ZoneInfo
    ) -> (DueDate, String.Index)? {
        guard end < caption.endIndex else { return nil }
        let timeStart = caption.index(after: end)
        let timeEnd = caption[timeStart...].firstIndex(of: " ") ?? caption.endIndex
        let time = caption[timeStart..<timeEnd]
        guard let colon = time.firstIndex(of: ":"), (1...2).contains(time.distance(from: time.startIndex, to: colon)),
            time.distance(from: colon, to: time.endIndex) == 3, time.allSatisfy({ $0 == ":" || $0.isASCII && $0.isNumber }),
            case .success(.set(let date)) = DueInput.parse(String(caption[start..<timeEnd]), now: now, local: local)
        else { return nil }
        return (date, timeEnd)
    }
}
