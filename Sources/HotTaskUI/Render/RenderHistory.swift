import HotTaskCore

/// The history view: completions per day as bars, the open tasks at each day's end, and a
/// year's completions as a heat map (weeks across, Monday to Sunday down). All three on a
/// screen of 21 rows or more between the title and the footer; one at a time below that (Tab
/// shows the next). Block characters, or ASCII when the terminal has none (`AppState.blocks`).
extension AppRender {
    /// Rows all three charts need under the view's heading.
    static let historyFullRows = 21
    /// Days the bar charts show at most: the last eight weeks.
    static let barDays = 56

    static func drawHistory(_ chart: HistoryChart, _ state: AppState, _ grid: inout Grid) {
        let width = state.size.width
        let top = 1
        let bottom = state.size.height - 2
        let thisWeek = chart.today - CalendarDay.weekday(chart.today)
        let thisMonth = CalendarDay.firstOfMonth(chart.today)
        let headings = [
            "History: \(chart.completed(on: chart.today)) done today, \(chart.completed(since: thisWeek)) this week, "
                + "\(chart.completed(since: thisMonth)) this month, \(chart.openNow) open",
            "Done: \(chart.completed(on: chart.today)) today, \(chart.completed(since: thisWeek)) week, \(chart.openNow) open",
            "History",
        ]
        grid.put(fitting(headings, width - 1), x: 0, y: top, style: .header)
        let rows = bottom - top
        if rows >= historyFullRows {
            drawDaily(chart, y: top + 1, rows: 6, state, &grid)
            drawOpen(chart, y: top + 7, rows: 5, state, &grid)
            drawYear(chart, y: top + 12, rows: bottom - top - 11, state, &grid)
            return
        }
        switch chart.page {
        case .daily: drawDaily(chart, y: top + 1, rows: rows, state, &grid)
        case .open: drawOpen(chart, y: top + 1, rows: rows, state, &grid)
        case .year: drawYear(chart, y: top + 1, rows: rows, state, &grid)
        }
    }

    /// The first of `wordings` that fits `width` columns (the last, cut, when none does).
    static func fitting(_ wordings: [String], _ width: Int) -> String {
        wordings.first { DisplayWidth.of($0) <= width } ?? wordings[wordings.count - 1].truncated(toWidth: width)
    }

    /// Left of each bar chart: its largest value on the top row.
    private static let scaleWidth = 5

    private static func barDayCount(_ width: Int) -> Int {
        max(1, min(barDays, width - scaleWidth - 1))
    }

    /// Completed per day: a heading, the bars, and the days under them.
    private static func drawDaily(_ chart: HistoryChart, y: Int, rows: Int, _ state: AppState, _ grid: inout Grid) {
        let count = barDayCount(state.size.width)
        let values = (0..<count).map { chart.completed(on: chart.today - count + 1 + $0) }
        let total = values.reduce(0, +)
        let heading = [
            "Completed per day, last \(count) days: \(total), at most \(values.max() ?? 0) a day",
            "Done per day, \(count) days: \(total)", "Done per day",
        ]
        drawBars(values, heading: heading, y: y, rows: rows, today: chart.today, state, &grid)
    }

    /// Open tasks at the end of each day, back from now through the history's adds and completions.
    private static func drawOpen(_ chart: HistoryChart, y: Int, rows: Int, _ state: AppState, _ grid: inout Grid) {
        let count = barDayCount(state.size.width)
        let values = chart.openAtEndOfDay(last: count)
        let then = "\(values.first ?? 0) on \(CalendarDay.short(chart.today - count + 1))"
        let heading = ["Open tasks at each day's end: \(chart.openNow) now, \(then)", "Open: \(chart.openNow) now, \(then)", "Open tasks"]
        drawBars(values, heading: heading, y: y, rows: rows, today: chart.today, state, &grid)
    }

    /// A heading, `values` as vertical bars in `rows - 2` rows (eighths of a cell with block
    /// characters, whole cells of `#` without), and a row naming the first day and today.
    private static func drawBars(
        _ values: [Int], heading: [String], y: Int, rows: Int, today: Int, _ state: AppState, _ grid: inout Grid
    ) {
        let width = state.size.width
        grid.put(fitting(heading, width - 1), x: 0, y: y, style: .plain)
        let height = rows - 2
        guard height > 0 else { return }
        let most = values.max() ?? 0
        grid.put(compact(most).leftPadded(to: scaleWidth - 1), x: 0, y: y + 1, style: .hint)
        for (index, value) in values.enumerated() {
            let x = scaleWidth + index
            // Eighths of a cell with blocks, whole cells of `#` without; any value above 0 shows.
            let step = state.blocks ? 8 : 1
            let filled = value == 0 || most == 0 ? 0 : max(1, (value * height * step + most / 2) / most)
            for row in 0..<height {
                let here = filled - (height - 1 - row) * step
                guard here > 0 else { continue }
                let cell = !state.blocks ? "#" : here >= 8 ? "█" : verticalEighths[here - 1]
                grid.put(cell, x: x, y: y + 1 + row, style: index == values.count - 1 ? .dueToday : .gaugeDone)
            }
        }
        let axis = y + 1 + height
        let firstDay = CalendarDay.short(today - values.count + 1)
        grid.put(firstDay, x: scaleWidth, y: axis, style: .hint)
        let end = scaleWidth + values.count
        if end - 5 > scaleWidth + DisplayWidth.of(firstDay) { grid.put("today", x: end - 5, y: axis, style: .hint) }
    }

    private static let verticalEighths = ["▁", "▂", "▃", "▄", "▅", "▆", "▇"]
    private static let heatBlocks = ["·", "░", "▒", "▓", "█"]
    private static let heatASCII = [".", "-", "+", "*", "#"]
    /// Monday to Sunday down, every other one named: Mon, Wed, Fri.
    private static let weekdayLabels: [String] = {
        let names = DateWords.weekdayNames
        return [names[1], "", names[3], "", names[5], "", ""]
    }()

    /// The year as weeks across (this week last), Monday to Sunday down: each day's completions
    /// in five shades, the most of any day the darkest. Months named over their first week.
    private static func drawYear(_ chart: HistoryChart, y: Int, rows: Int, _ state: AppState, _ grid: inout Grid) {
        let width = state.size.width
        let left = 4
        let weeks = max(1, min(53, width - left - 1))
        let lastMonday = chart.today - CalendarDay.weekday(chart.today)
        let firstMonday = lastMonday - (weeks - 1) * 7
        let days = firstMonday...chart.today
        let most = days.map { chart.completed(on: $0) }.max() ?? 0
        let total = days.reduce(0) { $0 + chart.completed(on: $1) }
        let span = weeks >= 52 ? "the last year" : "the last \(weeks) weeks"
        let heading = ["Completed in \(span): \(total), at most \(most) a day", "Done in \(span): \(total)", "Done per week"]
        grid.put(fitting(heading, width - 1), x: 0, y: y, style: .plain)
        // What fits: the months' row and the legend go first when rows are short.
        let showsMonths = rows >= 9
        let showsLegend = rows >= 10
        let gridTop = y + 1 + (showsMonths ? 1 : 0)
        if showsMonths {
            var free = left
            for week in 0..<weeks {
                let monday = firstMonday + week * 7
                let startsMonth = (0..<7).contains { CalendarDay.civil(monday + $0).date == 1 }
                // The first week is named only when no month starts soon after, to leave room.
                let namesFirst = week == 0 && !(1...3).contains { firstMonday + $0 * 7 + 6 >= CalendarDay.firstOfMonth(firstMonday, movedBy: 1) }
                guard startsMonth || namesFirst, left + week >= free else { continue }
                let name = CalendarDay.monthNames[CalendarDay.civil(monday + 6).month - 1]
                guard left + week + 3 <= width - 1 else { break }
                free = grid.put(name, x: left + week, y: y + 1, style: .hint) + 1
            }
        }
        let shades = state.blocks ? heatBlocks : heatASCII
        for weekday in 0..<min(7, rows - 1 - (showsMonths ? 1 : 0)) {
            grid.put(weekdayLabels[weekday], x: 0, y: gridTop + weekday, style: .hint)
            for week in 0..<weeks {
                let day = firstMonday + week * 7 + weekday
                guard day <= chart.today else { continue }
                let value = chart.completed(on: day)
                let level = value == 0 || most == 0 ? 0 : min(4, max(1, (value * 4 + most - 1) / most))
                let style: CellStyle = day == chart.today ? .dueToday : level == 0 ? .hint : .gaugeDone
                grid.put(shades[level], x: left + week, y: gridTop + weekday, style: style)
            }
        }
        if showsLegend {
            var x = grid.put("less ", x: left, y: gridTop + 7, style: .hint)
            for level in 0..<shades.count { x = grid.put(shades[level], x: x, y: gridTop + 7, style: level == 0 ? .hint : .gaugeDone) }
            grid.put(" more", x: x, y: gridTop + 7, style: .hint)
        }
    }

    /// A count in at most four columns: 999, 12k, 3M.
    static func compact(_ value: Int) -> String {
        if value < 10_000 { return String(value) }
        if value < 1_000_000 { return "\(value / 1000)k" }
        return "\(value / 1_000_000)M"
    }
}

extension String {
    /// The text with spaces before it to `width` columns.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - DisplayWidth.of(self))) + self
    }
}
