import FoundationEssentials
import Glibc
import HotTaskCore

extension ListFormatter {
    /// `--list --sort due`: the summary, then the open tasks the selection keeps in one list,
    /// soonest due first and undated last (each in the list's own order among equals), each
    /// subtask right after its parent among its siblings so sorted, numbered
    /// as `--list` numbers them, so that `--done N` takes the number shown.
    static func writeByDue(
        _ list: TaskList, styled: Bool, selection: ListSelection, showingIDs: Bool, dates: DueDisplay, showingLists: Bool = false,
        emit: ([UInt8]) -> Void
    ) {
        // Keys made once per task, not once per comparison.
        var dated: [(key: Int64, position: Int)] = []
        var undated: [Int] = []
        for position in 0..<list.count {
            let task = list[position]
            guard selection.includes(task) else { continue }
            if let due = task.due { dated.append((due.sortKey(local: dates.local), position)) } else { undated.append(position) }
        }
        dated.sort { ($0.key, $0.position) < ($1.key, $1.position) }
        let sorted = dated.map(\.position) + undated
        // Sorting sorts siblings: each subtask comes right after its parent, indented.
        let tree = Subtasks(list)
        let shown = tree.familyOrder(of: sorted.map { list[$0] }).map { (position: sorted[$0.index], depth: $0.depth) }
        let positions = shown.map(\.position)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 18)
        func line(_ text: String, bold: Bool) {
            if styled && bold { out += "\u{1B}[1m".utf8 }
            out += text.utf8
            if styled && bold { out += "\u{1B}[0m".utf8 }
            out.append(0x0A)
        }
        line(selection.summary(of: list), bold: true)
        line("", bold: false)
        line("Open tasks by due date (\(positions.count))", bold: true)
        if positions.isEmpty { line("  (none shown)", bold: false) }
        let width = String(max(list.count, 1)).utf8.count
        let shortIDs = showingIDs ? list.shortIDs() : []
        for (position, depth) in shown {
            let task = list[position]
            let number = String(position + 1)
            out += String(repeating: " ", count: 2 + width - number.utf8.count).utf8
            out += number.utf8
            out.append(UInt8(ascii: "."))
            if showingIDs { out += (" " + shortIDs[position]).utf8 }
            out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
            out += " [ ] ".utf8
            out += CaptionRule.shown(task.caption).utf8
            appendTagsAndNote(task, styled: styled, list: showingLists ? list.listName(of: task) : nil, to: &out)
            if let due = task.due { appendDue(due, repeating: task.repeatRule, completed: false, styled: styled, dates: dates, to: &out) }
            out.append(0x0A)
            if out.count >= 1 << 18 {
                emit(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        emit(out)
    }
}
