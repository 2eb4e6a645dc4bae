import FoundationEssentials
import Glibc
import HotTaskCore

/// Which tasks `--list` shows: `--open` leaves out completed ones, `--filter` keeps those whose
/// caption matches as the UI's filter does.
struct ListSelection {
    let openOnly: Bool
    /// The filter's query folded once, not once per task (tags and due dates as the app's filter reads them).
    private let matcher: TaskFilter.Matcher?
    /// `--overdue`: only open tasks whose due date has passed as of this.
    let overdueAsOf: DueDisplay?
    /// The store's lists (what a task's list is called).
    let lists: ListNames

    init(
        openOnly: Bool = false, filter: String? = nil, overdueAsOf: DueDisplay? = nil, dates: DueDisplay = DueDisplay(now: Date(), local: .current),
        lists: ListNames = .initial
    ) {
        self.openOnly = openOnly || overdueAsOf != nil
        self.lists = lists
        matcher = (filter ?? "").isEmpty ? nil : TaskFilter.Matcher(filter ?? "", dates: dates, lists: lists)
        self.overdueAsOf = overdueAsOf
    }

    /// `--in`: only the tasks of this list (by name).
    var onlyList: String?

    var isEverything: Bool { !openOnly && matcher == nil && onlyList == nil }

    /// The progress summary: of the list `--in` names, else of every task.
    func summary(of list: TaskList) -> String {
        guard let onlyList else { return Progress(list).summary }
        let count = list.count(ofListNamed: onlyList)
        return Progress(completed: count.completed, total: count.total).summary
    }

    func includes(_ task: TaskItem) -> Bool {
        if let onlyList, lists.name(of: task.list) != onlyList { return false }
        if openOnly && task.completed { return false }
        if let overdueAsOf, !overdueAsOf.isOverdue(task.due) { return false }
        return matcher?.matches(task) ?? true
    }
}

/// The text of `--list`: the summary, then each section with numbered tasks.
///
/// `styled` adds ANSI bold to the summary and headers and dim to completed tasks; the caller
/// asks for it only when stdout is a terminal and NO_COLOR is unset, so pipes and files get
/// plain text. Captions cannot carry escape sequences (the caption rules remove them), and are
/// shown on one line (`CaptionRule.shown`).
enum ListFormatter {
    private static let bold = "\u{1B}[1m"
    private static let dim = "\u{1B}[2m"
    private static let reset = "\u{1B}[0m"

    /// Numbers run over the whole list even when `selection` hides tasks, so that the number
    /// shown is the one `--done` takes. `showingIDs` adds each task's short id, a handle that
    /// does not change when tasks are added.
    ///
    /// The text, each line ending in a line break, is written as bytes and given to `emit` in
    /// pieces of about 256 KB: no String per line (at 100,000 tasks the lines and their joining
    /// cost a tenth of `--list`), and the whole text is never held.
    static func write(
        _ list: TaskList, styled: Bool = false, selection: ListSelection = ListSelection(), showingIDs: Bool = false,
        dates: DueDisplay = DueDisplay(now: Date(), local: .current), showingLists: Bool = false, emit: ([UInt8]) -> Void
    ) {
        let pieceSize = 1 << 18
        var out: [UInt8] = []
        out.reserveCapacity(pieceSize + 16_384)
        func line(_ text: String, _ code: String? = nil) {
            if styled, let code { out += code.utf8 }
            out += text.utf8
            if styled, code != nil { out += reset.utf8 }
            out.append(0x0A)
        }
        line(selection.summary(of: list), bold)
        line("")
        let width = String(max(list.count, 1)).utf8.count
        let shortIDs = showingIDs ? list.shortIDs() : []
        var digits: [UInt8] = []
        // Each subtask right after its parent, indented (sorting moves a family whole). The
        // tree is made only when a section's tasks are not in that order already.
        var tree: Subtasks?
        for section in Section.allCases {
            let tasks = list.tasks(in: section)
            // Each task matched once (the filter folds case and accents), for the count and the lines.
            let included = selection.isEverything ? nil : tasks.map { selection.includes($0) }
            let shown = included.map { $0.reduce(0) { $0 + ($1 ? 1 : 0) } } ?? tasks.count
            let count = shown == tasks.count ? "\(tasks.count)" : "\(shown) of \(tasks.count)"
            line("\(section.title) (\(count))", bold)
            if shown == 0 { line(tasks.isEmpty ? "  (none)" : "  (none shown)") }
            let order =
                Subtasks.orderIfInPlace(tasks)
                ?? {
                    let made = tree ?? Subtasks(list)
                    tree = made
                    return made.familyOrder(of: tasks)
                }()
            for (index, depth) in order {
                let task = tasks[index]
                let number = list.position(of: index, in: section) + 1
                guard included?[index] ?? true else { continue }
                if styled && task.completed { out += dim.utf8 }
                // "  " + the number right-aligned to `width` + "." + id + " [x] " + caption
                digits.removeAll(keepingCapacity: true)
                var rest = number
                repeat {
                    digits.append(UInt8(0x30 + rest % 10))
                    rest /= 10
                } while rest > 0
                out.append(contentsOf: repeatElement(0x20, count: 2 + width - digits.count))
                out.append(contentsOf: digits.reversed())
                out.append(UInt8(ascii: "."))
                if showingIDs {
                    out.append(0x20)
                    out += shortIDs[number - 1].utf8
                }
                out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
                out.append(contentsOf: task.completed ? [0x20, 0x5B, 0x78, 0x5D, 0x20] : [0x20, 0x5B, 0x20, 0x5D, 0x20])
                var caption = CaptionRule.shown(task.caption)
                caption.withUTF8 { out.append(contentsOf: $0) }
                appendTagsAndNote(task, styled: styled, list: showingLists ? list.listName(of: task) : nil, to: &out)
                if let due = task.due {
                    appendDue(due, repeating: task.repeatRule, completed: task.completed, styled: styled, dates: dates, to: &out)
                }
                if styled && task.completed { out += reset.utf8 }
                out.append(0x0A)
                if out.count >= pieceSize {
                    emit(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
        }
        emit(out)
    }

    /// "  (due Fri)", or "  (overdue: 2026-11-20)" in bold red when styled; a completed task's
    /// due date is never overdue. A repeating task's rule follows: "  (due Sun, ↻ every Sun)".
    static func appendDue(
        _ due: DueDate, repeating rule: RepeatRule = .none, completed: Bool, styled: Bool, dates: DueDisplay, to out: inout [UInt8]
    ) {
        let overdue = !completed && dates.standing(due) == .overdue
        if styled && overdue { out += overdueStyle.utf8 }
        out += "  (\(overdue ? "overdue: " : "due ")\(dates.text(due))".utf8
        if !rule.isNone { out += ", \(repeatMark) \(rule.words)".utf8 }
        out.append(UInt8(ascii: ")"))
        if styled && overdue { out += reset.utf8 }
    }

    /// The mark of a repeating task, as the app shows it too.
    static let repeatMark = "↻"

    private static let overdueStyle = "\u{1B}[1;31m"

    /// What a task shows after its caption, as the app shows it: the mark ` ✎` when it has a
    /// note, then its tags (` +work @phone`, dim when styled).
    /// `list`: the name of its list, shown last in brackets (`--list` of a store with several lists).
    static func appendTagsAndNote(_ task: TaskItem, styled: Bool, list: String? = nil, to out: inout [UInt8]) {
        if !task.note.isEmpty { out += " \(noteMark)".utf8 }
        defer {
            if let list {
                if styled && !task.completed { out += dim.utf8 }
                out += "  [\(MessageText.escaped(list))]".utf8
                if styled && !task.completed { out += reset.utf8 }
            }
        }
        let tags = task.tags
        if !tags.isEmpty {
            if styled && !task.completed { out += dim.utf8 }
            for tag in tags { out += (" " + TagRule.label(tag)).utf8 }
            if styled && !task.completed { out += reset.utf8 }
        }
    }

    /// The mark of a task with a note, as the app shows it too.
    static let noteMark = "✎"

    /// Colour only for a person at a terminal that can show it (https://no-color.org).
    static func wantsStyle(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
