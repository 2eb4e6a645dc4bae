import HotTaskCore

/// The calendar of due dates: the chosen day's month, Monday first, each day with tasks due
/// marked (and counted, where a week has two rows), today and overdue days in their colours,
/// and under it what the chosen day has due.
extension AppRender {
    /// Monday first.
    static let weekdayNames = Array(DateWords.weekdayNames[1...]) + [DateWords.weekdayNames[0]]

    static func drawCalendar(_ calendar: DueCalendar, _ state: AppState, _ grid: inout Grid) {
        let width = state.size.width
        let top = 1
        let bottom = state.size.height - 2
        let first = CalendarDay.firstOfMonth(calendar.selected)
        let length = CalendarDay.daysInMonth(first)
        let (year, month, _) = CalendarDay.civil(first)
        let monthDays = (first..<first + length).compactMap { calendar.due(on: $0) }
        let open = monthDays.reduce(0) { $0 + $1.open }
        let overdue = (first..<first + length).filter(calendar.isOverdue).count
        let name = "\(CalendarDay.longMonthNames[month - 1]) \(year)"
        let late = overdue == 0 ? "" : overdue == 1 ? ", 1 day overdue" : ", \(overdue) days overdue"
        grid.put(fitting(["Due dates, \(name): \(open) open\(late)", "\(name): \(open) due\(late)", name], width - 1), x: 0, y: top, style: .header)

        let cell = max(3, min(10, (width - 1) / 7))
        for (index, weekday) in weekdayNames.enumerated() {
            grid.put(cell >= 5 ? " " + weekday : " " + weekday.prefix(2), x: index * cell, y: top + 1, style: .hint)
        }
        let offset = CalendarDay.weekday(first)
        let weeks = (offset + length + 6) / 7
        // Two rows a week (the day, then its count) when the month still leaves room under it.
        let room = bottom - (top + 1)
        let rowsPerWeek = cell >= 7 && room >= weeks * 2 + 2 ? 2 : 1
        for index in 0..<length {
            let day = first + index
            let slot = offset + index
            drawDay(day, calendar, x: (slot % 7) * cell, y: top + 2 + (slot / 7) * rowsPerWeek, width: cell, rows: rowsPerWeek, state, &grid)
        }
        drawChosenDay(calendar, from: top + 2 + weeks * rowsPerWeek, to: bottom, width: width, state, &grid)
    }

    /// One day's cell: its number and a mark when something is due, then (on a second row) how
    /// many tasks are due or done.
    private static func drawDay(
        _ day: Int, _ calendar: DueCalendar, x: Int, y: Int, width: Int, rows: Int, _ state: AppState, _ grid: inout Grid
    ) {
        let due = calendar.due(on: day)
        let overdue = calendar.isOverdue(day)
        let style: CellStyle
        if day == calendar.selected {
            style = overdue ? .overdueSelected : .selected
        } else if overdue {
            style = .overdue
        } else if day == calendar.today {
            style = .dueToday
        } else if let due {
            style = due.open > 0 ? .due : .taskDone
        } else {
            style = .plain
        }
        let mark = due == nil ? " " : state.blocks ? "•" : "*"
        let number = String(CalendarDay.civil(day).date).leftPadded(to: 2)
        // Today is pointed at as well as coloured: NO_COLOR and mono terminals still find it.
        let pointer = day == calendar.today ? (state.blocks ? "›" : ">") : " "
        // A cell of four: pointer, number, mark and a gap. Narrower (under 36 columns), the
        // number keeps both digits and one sign goes before it, today's pointer before the due
        // mark; at three columns there is no gap, that sign's space keeps the days apart.
        let inner = width >= 5 ? width - 1 : 3
        let text = inner >= 4 ? pointer + number + mark : (pointer == " " ? mark : pointer) + number
        grid.put(text.truncated(toWidth: inner).padded(to: inner), x: x, y: y, style: style)
        guard rows == 2 else { return }
        var count = ""
        if let due { count = due.open > 0 ? " \(due.open) due" : " \(due.done) done" }
        grid.put(count.truncated(toWidth: inner).padded(to: inner), x: x, y: y + 1, style: style)
    }

    /// Under the month: the chosen day, what it has due, and as many captions as there are rows.
    private static func drawChosenDay(_ calendar: DueCalendar, from top: Int, to bottom: Int, width: Int, _ state: AppState, _ grid: inout Grid) {
        guard top <= bottom else { return }
        let day = calendar.selected
        let weekday = weekdayNames[CalendarDay.weekday(day)]
        let due = calendar.due(on: day)
        var parts: [String] = []
        if let due, due.open > 0 { parts.append("\(due.open) due") }
        if let due, due.done > 0 { parts.append("\(due.done) done") }
        let summary = parts.isEmpty ? "nothing due" : parts.joined(separator: ", ")
        let late = calendar.isOverdue(day) ? " (overdue)" : day == calendar.today ? " (today)" : ""
        let y = top + (bottom - top >= 2 ? 1 : 0)
        grid.put(
            fitting(["\(weekday) \(Statistics.date(day))\(late): \(summary)", "\(weekday) \(CalendarDay.short(day)): \(summary)"], width - 1), x: 0,
            y: y, style: .plain)
        guard let due else { return }
        let rows = bottom - y
        guard rows > 0 else { return }
        let total = due.open + due.done
        // All of them when they fit; else as many as leave a row for how many more there are.
        let shown = total <= rows && due.captions.count == total ? total : min(due.captions.count, rows - 1)
        let bullet = state.blocks ? "  • " : "  - "
        for (index, caption) in due.captions.prefix(shown).enumerated() {
            grid.put((bullet + caption).truncated(toWidth: width - 1), x: 0, y: y + 1 + index, style: index < due.open ? .plain : .taskDone)
        }
        if shown < total { grid.put("  \(state.blocks ? "…" : "...") and \(total - shown) more", x: 0, y: y + 1 + shown, style: .hint) }
    }
}

extension String {
    /// The text with spaces after it to `width` columns.
    fileprivate func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - DisplayWidth.of(self)))
    }
}
