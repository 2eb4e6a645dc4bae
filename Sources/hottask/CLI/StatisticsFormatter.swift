import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskUI

/// The text of `--stats`, every line within 80 columns: the completions of today, this week
/// and this month, added against done, the list as it stands, its oldest open task, and a
/// chart of the last 14 days drawn with block characters (`#` where the terminal's character
/// set is not UTF-8, or NO_COLOR asks for plain output).
enum StatisticsFormatter {
    static let width = 80
    static let chartDays = 14

    static func text(_ statistics: Statistics, blocks: Bool) -> String {
        let shown = statistics.lastDays(chartDays)
        let added = shown.reduce(0) { $0 + $1.added }
        let done = shown.reduce(0) { $0 + $1.completed }
        var lines = [
            "Completed: \(statistics.completedToday) today, \(statistics.completedThisWeek) this week, \(statistics.completedThisMonth) this month",
            "Last \(shown.count) days: \(added) added, \(done) completed",
            "Open: \(statistics.open), \(statistics.overdue) overdue",
            oldestLine(statistics, ellipsis: blocks ? "…" : "..."),
        ]
        // The lasting history counts every occurrence, but not by task: narrowed, a repeating
        // task holds only its last completion, and the numbers say less than they are.
        lines += ["", "Day              added  done"]
        let most = shown.map(\.completed).max() ?? 0
        let barWidth = width - 30
        for day in shown {
            let name = DateWords.weekdayNames[DateWords.weekday(ofDay: day.day)]
            let numbers = pad(day.added, 5) + " " + pad(day.completed, 5)
            let bar = Self.bar(day.completed, of: most, width: barWidth, blocks: blocks)
            lines.append("\(name) \(day.date)   \(numbers)" + (bar.isEmpty ? "" : "  " + bar))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether to draw with block characters: the locale's character set is UTF-8 and NO_COLOR
    /// is not set (`LANG=C` and a terminal without Unicode get `#`).
    static func wantsBlocks(environment: [String: String]) -> Bool {
        guard (environment["NO_COLOR"] ?? "").isEmpty else { return false }
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let folded = locale.lowercased()
        return folded.contains("utf-8") || folded.contains("utf8")
    }

    private static let eighths = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// `value` of `most` as a bar of at most `width` cells; any value above 0 shows.
    static func bar(_ value: Int, of most: Int, width: Int, blocks: Bool) -> String {
        guard value > 0, most > 0 else { return "" }
        if !blocks { return String(repeating: "#", count: max(1, (value * width + most / 2) / most)) }
        let eighths = max(1, (value * width * 8 + most / 2) / most)
        return String(repeating: "█", count: eighths / 8) + (eighths % 8 == 0 ? "" : Self.eighths[eighths % 8 - 1])
    }

    private static func oldestLine(_ statistics: Statistics, ellipsis: String) -> String {
        guard let task = statistics.oldestOpen, let created = statistics.oldestOpenDay else { return "Oldest open: none" }
        let age = statistics.today - created
        let date = Statistics.date(created)
        let tail = " (added \(date), \(age == 1 ? "1 day" : "\(age) days") ago)"
        let room = width - DisplayWidth.of("Oldest open: ") - DisplayWidth.of(tail)
        return "Oldest open: " + fitted(CaptionRule.shown(task.caption), room, ellipsis: ellipsis) + tail
    }

    /// `text` cut to `columns`, ending in `ellipsis` when cut.
    static func fitted(_ text: String, _ columns: Int, ellipsis: String) -> String {
        guard DisplayWidth.of(text) > columns else { return text }
        var kept = ""
        var used = DisplayWidth.of(ellipsis)
        for character in text {
            let width = DisplayWidth.of(character)
            guard used + width <= columns else { break }
            kept.append(character)
            used += width
        }
        return kept + ellipsis
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
