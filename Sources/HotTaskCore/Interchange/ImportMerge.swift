import FoundationEssentials
import Glibc

/// What an import did, for the line the CLI prints.
struct ImportCounts: Equatable, Sendable, CustomStringConvertible {
    var added = 0
    var updated = 0
    var unchanged = 0
    var skipped = 0
    /// Tasks deleted here because their todo.txt line was removed (said only when some were).
    var deleted = 0
    /// Of `skipped`: older copies of tasks deleted here (the file still has them).
    var deletedHere = 0
    /// Of `skipped`: to-dos whose UID an earlier one in the file has (one UID is one task).
    var duplicates = 0

    init(added: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
    }

    /// Equal when they say the same (`deletedHere` is part of `skipped`).
    static func == (a: ImportCounts, b: ImportCounts) -> Bool {
        (a.added, a.updated, a.unchanged, a.skipped, a.deleted) == (b.added, b.updated, b.unchanged, b.skipped, b.deleted)
    }

    var description: String {
        "added \(added), updated \(updated), unchanged \(unchanged), skipped \(skipped)"
            + (duplicates > 0 ? " (\(duplicates) with the id or UID of an earlier task in the file)" : "")
            + (deleted > 0 ? ", deleted \(deleted)" : "")
    }
}

extension TaskList {
    /// The batch with its todo.txt lines given the ids of the tasks here they stand for: the
    /// task whose id starts with the line's `id:` tag, else one with the same caption (a line
    /// whose priority or done mark changed is still that task), else the one task whose line
    /// is missing where this line stands (see `TodoTxtPlacement`). Deleted tasks count too, so
    /// that a line for a task deleted here is recognised, and skipped, rather than added anew.
    /// Each task is claimed by one line at most, and a dated open line does not take a task
    /// completed before the line was written (a chore done last week and written again today
    /// is a new task); an undated line takes a completed task that a file said before (the
    /// import base knows it), never one only ever done here. A line that
    /// matches nothing keeps its derived id, or a fresh one if another line took that id. A
    /// completed line that says no priority keeps its task's section. Other formats carry
    /// their own ids.
    /// How many lines whose task is unclear are named one by one; the rest are counted.
    static let unclearLinesNamed = 10

    func resolvingIdentity(of batch: ImportBatch, base: ImportBase = ImportBase()) -> ImportBatch {
        guard batch.format == .todoTxt else { return batch }
        var resolved = batch
        var lines = batch.todoTxtLines ?? TodoTxtLines()
        let known = all + deleted.values.map(\.task)
        var claimed = Set<UUID>()
        // Which known task (by its index in `known`) each line stands for; -1: none yet.
        var matchOf = [Int](repeating: -1, count: batch.tasks.count)
        var byCaption: [String: [Int]] = [:]
        var byShortID: [Substring: [Int]] = [:]
        for (index, task) in known.enumerated() {
            byCaption[task.caption, default: []].append(index)
            byShortID[task.id.uuidString.lowercased().prefix(Self.minimumIDPrefix), default: []].append(index)
        }
        // The same by the captions' digests, made the first time a line with tags asks.
        var captionDigests: [TextDigest: [Int]]?
        func byCaptionDigest() -> [TextDigest: [Int]] {
            if let captionDigests { return captionDigests }
            var made: [TextDigest: [Int]] = [:]
            for (index, task) in known.enumerated() { made[TextDigest(task.caption), default: []].append(index) }
            captionDigests = made
            return made
        }
        func take(_ index: Int, for position: Int) {
            claimed.insert(known[index].id)
            matchOf[position] = index
            resolved.tasks[position].id = known[index].id
            if lines.priorityUnsaid.contains(position) { resolved.tasks[position].section = known[index].section }
            // todo.txt holds no note (HotTask writes none): a line never says one, so the task
            // keeps its own, in the merge and in the base the file is recorded as (issue 52).
            if !known[index].note.isEmpty { resolved.tasks[position].note = known[index].note }
            // A tag with a space goes out with `_` for it (a todo.txt word has none): read back, it
            // is the task's own tag again.
            let tags = known[index].tags
            if tags.contains(where: { $0.contains(" ") }) {
                resolved.tasks[position].tags = resolved.tasks[position].tags.map { word in
                    tags.first { $0.contains(" ") && $0.replacing(" ", with: "_") == word } ?? word
                }
            }
            // A `rec:` line without `due:` says no due date: the task keeps its own, and while the
            // file last had that one, the export writes none for it (issue 52).
            if lines.dueAssumed.contains(position), let due = known[index].due {
                resolved.tasks[position].due = due
                if due.isDay, base[known[index].id]?[.due] == ImportBase.fingerprint(.due(due)) {
                    var record = TodoTxtRecord(resolved.carried[position])
                    record.assumedDue = due.dayText
                    resolved.carried[position] = record.text
                }
            }
        }
        var unresolved: [Int] = []
        for (position, prefix) in batch.idPrefixes.sorted(by: { $0.key < $1.key }) {
            let matches = (byShortID[prefix.prefix(Self.minimumIDPrefix)] ?? []).filter { known[$0].id.uuidString.lowercased().hasPrefix(prefix) }
            if matches.count == 1, !claimed.contains(known[matches[0]].id) {
                take(matches[0], for: position)
            } else {
                unresolved.append(position)
            }
        }
        let untagged = batch.tasks.indices.filter { batch.idPrefixes[$0] == nil }
        var unmatched: [Int] = []
        // How many of each caption's tasks, from the first, are claimed already: claims only
        // grow, so 20,000 identical lines do not each look past all the ones before (issue 50).
        var claimedFirst: [String: Int] = [:]
        for position in (unresolved + untagged).sorted() {
            let line = batch.tasks[position]
            let undated = lines.undated.contains(position)
            let taken = { (index: Int) -> Bool in
                let task = known[index]
                // An undated line has no time to compare: it is the task a file said before (it
                // was completed here since), never a chore only ever done here.
                let writtenSince = undated ? base[task.id] == nil : (task.completedAt ?? task.modifiedAt) < line.createdAt
                return !claimed.contains(task.id) && !(task.completed && !line.completed && writtenSince)
            }
            let own = byCaption[line.caption] ?? []
            var first = claimedFirst[line.caption, default: 0]
            while first < own.count, claimed.contains(known[own[first]].id) { first += 1 }
            claimedFirst[line.caption] = first
            // A line with tags also finds the task an older HotTask made of it (the tags in its caption).
            let match =
                own[first...].first(where: taken) ?? lines.captionsWithTags[position].flatMap { byCaptionDigest()[$0] }?.first(where: taken)
            guard let match else {
                unmatched.append(position)
                continue
            }
            take(match, for: position)
        }
        if !unmatched.isEmpty, !base.isEmpty {
            var unclear = 0
            defer {
                if unclear > Self.unclearLinesNamed {
                    lines.notes.append(
                        "\(unclear - Self.unclearLinesNamed) more lines have no id: tag and stand where lines are gone; imported as new tasks")
                }
            }
            var placement = TodoTxtPlacement(list: self, base: base, claimed: claimed, batch: batch, lines: lines, matchOf: matchOf)
            unmatched = unmatched.filter { position in
                guard batch.idPrefixes[position] == nil else { return true }
                switch placement.task(for: position, in: batch, lines: lines) {
                case .found(let index):
                    take(index, for: position)
                    return false
                case .unclear(let candidates):
                    lines.unclearCandidates.formUnion(candidates.map(\.id))
                    unclear += 1
                    guard unclear <= Self.unclearLinesNamed else { return true }
                    let names = candidates.prefix(3).map { "'\(CaptionRule.shown($0.caption))'" }.joined(separator: " or ")
                    lines.notes.append(
                        "\(lines.place(of: position)) '\(CaptionRule.shown(batch.tasks[position].caption))' has no id: tag and stands where the line of \(names) was; imported as a new task (if it is that task, delete one of the two)"
                    )
                    return true
                case .new:
                    return true
                }
            }
        }
        let knownIDs = Set(known.map(\.id))
        for position in unmatched {
            var id = resolved.tasks[position].id
            var attempt = 0
            // A derived id may be a task here this line did not match (taken by another line,
            // or completed before the line was written): the line must not merge into it.
            while claimed.contains(id) || knownIDs.contains(id) {
                attempt += 1
                id = UUIDBytes.derived(from: Array(resolved.tasks[position].caption.utf8) + Array("#taken-\(attempt)".utf8))
            }
            claimed.insert(id)
            resolved.tasks[position].id = id
        }
        if batch.todoTxtLines != nil { resolved.todoTxtLines = lines }
        return resolved
    }

    /// The changes that merge `batch` in, by id: new ids are added at the end of their section
    /// in the order given. A known id merges field by field against `base` (the task as the
    /// last import had it): a field the file did not change since keeps the value here; one
    /// changed only in the file takes the file's; one changed on both takes the later change.
    /// Without a base, the incoming fields win when its `modifiedAt` is newer. A task that
    /// moved goes to the end of its new section. A task deleted here comes back only when the
    /// file changed it since (or, without a base, changed it after the delete); nothing is
    /// deleted.
    /// `ids`: the batch's ids (`SortedIDs(batch.tasks)`), when the caller has them already.
    func importing(_ batch: ImportBatch, ids: SortedIDs? = nil, base: ImportBase = ImportBase(), dates: DueDisplay) -> (
        changes: [TaskChange], counts: ImportCounts
    ) {
        var counts = ImportCounts(skipped: batch.skipped)
        var changes: [TaskChange] = []
        changes.reserveCapacity(batch.tasks.count)
        // Positions of the tasks to add, not copies of them (an import of 100,000 held three).
        var added: [[Int]] = Section.allCases.map { _ in [] }
        // Tasks found by id in sorted ids (`task(withID:)` scans a list without its index:
        // re-importing 20,000 tasks took 34 s; the index itself takes 10 MB at 100,000).
        let byID = SortedIDs(self)
        // A task given twice counts once, where it first appears.
        let givenEarlier = (ids ?? SortedIDs(batch.tasks)).givenEarlier(count: batch.tasks.count)
        var endKeys: [Section: OrderKey] = [:]
        func nextEndKey(_ section: Section) -> OrderKey {
            let key = OrderKey.between(endKeys[section] ?? tasks(in: section).last?.order, nil)
            endKeys[section] = key
            return key
        }
        // Taskwarrior and iCalendar write whole seconds: a file's change in the same second as
        // one here is not older than it (it was cut to the second), so it counts as at its end.
        let secondsOnly = batch.format == .taskwarrior || batch.format == .iCalendar
        for (position, given) in batch.tasks.enumerated() {
            guard !givenEarlier[position] else {
                // todo.txt names its own (a line with the id of another is said by its reader).
                if batch.format != .todoTxt {
                    counts.skipped += 1
                    counts.duplicates += 1
                }
                continue
            }
            var task = given
            if !byID.entries.isEmpty, let current = byID.position(of: task.id).map({ self[$0] }) {
                // todo.txt says only the day of a due time: the same day is the same due date.
                if batch.format == .todoTxt, let said = task.due, let due = current.due, !due.isDay,
                    dates.localDay(due) == said.days
                {
                    task.due = due
                }
                // Taskwarrior keeps a due time as its instant in UTC: the same instant is the same
                // due date, and the zone it is kept in here stays (an untouched round trip through
                // `task` turned "Fri 09:30 Europe/Berlin" into 08:30 UTC, and said "updated").
                if batch.format == .taskwarrior, let said = task.due, let due = current.due, !said.isDay, !due.isDay,
                    said.instant(local: dates.local) == due.instant(local: dates.local)
                {
                    task.due = due
                }
                // A rule `rec:` cannot say was written as no `rec:`: a line without one keeps it.
                if batch.format == .todoTxt, task.repeatRule.isNone, !TodoTxtRecurrence.says(current.repeatRule) {
                    task.repeatRule = current.repeatRule
                }
                // The same tags in another order are the same tags: Taskwarrior keeps a `project:`
                // tag apart from the others, and its file gives it back first.
                if task.tags != current.tags, task.tags.sorted() == current.tags.sorted() { task.tags = current.tags }
                // Taskwarrior and todo.txt hold no subtask relation (DECISIONS): a task keeps its own.
                if batch.format == .taskwarrior || batch.format == .todoTxt { task.parent = current.parent }
                var fields: TaskFields
                // An undated todo.txt line was "written" at the import's now: never newer.
                let undated = batch.todoTxtLines?.undated.contains(position) ?? false
                if let agreed = base[task.id] {
                    fields = Self.threeWay(incoming: task, current: current, base: agreed, undated: undated, secondsOnly: secondsOnly)
                } else {
                    guard !undated, Self.fileTime(task, secondsOnly: secondsOnly) > current.modifiedAt else {
                        counts.unchanged += 1
                        continue
                    }
                    fields = TaskFields()
                    for field in TaskField.shared where field.value(of: task) != field.value(of: current) {
                        fields[field] = field.value(of: task)
                    }
                    if fields.completed != nil { fields.completedAt = task.completedAt }
                }
                if batch.format == .todoTxt { Self.doneOccurrence(&fields, of: current, line: task, today: dates.today) }
                if fields.section != nil { fields.order = nextEndKey(task.section) }
                if fields.isEmpty {
                    counts.unchanged += 1
                } else {
                    changes.append(.set(task.id, fields, was: fields.values(in: current)))
                    counts.updated += 1
                }
            } else if !deleted.isEmpty, let tombstone = deleted[task.id],
                base[task.id].map({ $0.matches(task) }) ?? (task.modifiedAt <= tombstone.clock.date)
            {
                counts.skipped += 1  // an older copy of a task deleted here
                counts.deletedHere += 1
            } else {
                added[task.section == .priority ? 0 : 1].append(position)
                counts.added += 1
            }
        }
        for (section, positions) in zip(Section.allCases, added) {
            for position in positions {
                var task = batch.tasks[position]
                task.order = nextEndKey(section)
                changes.append(.add(task))
            }
        }
        return (changes, counts)
    }

    /// A todo.txt line of an open repeating task done there (todo.sh's `do`, archived or not)
    /// completes the occurrence its line says (its `due:`), as completing it here does
    /// (`ChangeRules.complete`): the task stays open and moves on to the next due date, counted
    /// from the line's completion day for a rule counted from the day it is done. Its last
    /// occurrence completes it. A task done here past that occurrence since (both sides
    /// completed it) stays where it is, when its rule counts from the due date.
    private static func doneOccurrence(_ fields: inout TaskFields, of current: TaskItem, line: TaskItem, today: Int) {
        guard fields.completed == true, !current.completed else { return }
        var after = current
        for field in TaskField.shared where field != .completed {
            if let value = fields[field] { field.set(value, on: &after, now: nil) }
        }
        if let said = line.due { after.due = said }
        let day = line.completedAt.map { DueDate.localDay(of: $0, in: ZoneInfo(identifier: "UTC")!) }
        guard let next = ChangeRules.nextOccurrence(of: after, doneOn: day ?? today) else { return }
        fields.completed = nil
        fields.completedAt = nil
        // Counted from the due date, an occurrence at or before the one due here was done here
        // already; counted from the day done, the line's day says when the next one falls.
        if !after.repeatRule.afterDone, let due = current.due, next.due.wallSeconds <= due.wallSeconds {
            fields.due = nil
            return
        }
        fields.due = .some(next.due)
        if next.rule != current.repeatRule { fields.repeatRule = next.rule }
    }

    /// The fields the file changed since `base` and that win here: changed only in the file, or
    /// on both sides with the file's change the later.
    private static func threeWay(incoming: TaskItem, current: TaskItem, base: ImportBase.Entry, undated: Bool, secondsOnly: Bool) -> TaskFields {
        let fileTime = Clock(milliseconds: undated ? 0 : Int64(fileTime(incoming, secondsOnly: secondsOnly).timeIntervalSince1970 * 1000))
        var fields = TaskFields()
        // Compared by fingerprint: the base keeps only that. A field a base from before it does
        // not know counts as changed on both sides: the later change wins.
        for field in TaskField.shared {
            let file = field.value(of: incoming)
            if ThreeWay.pick(
                base: base[field], local: ImportBase.fingerprint(field.value(of: current)), other: ImportBase.fingerprint(file),
                localTime: current.clocks[field], otherTime: fileTime) == .other
            {
                fields[field] = file
                if field == .completed { fields.completedAt = incoming.completedAt }
            }
        }
        return fields
    }

    /// When the file changed `task`: a time cut to the whole second (`secondsOnly`) counts as
    /// the last millisecond of that second.
    private static func fileTime(_ task: TaskItem, secondsOnly: Bool) -> Date {
        guard secondsOnly, task.modifiedAt.timeIntervalSince1970.rounded(.down) == task.modifiedAt.timeIntervalSince1970 else {
            return task.modifiedAt
        }
        return task.modifiedAt.addingTimeInterval(0.999)
    }

    /// The changes that make this list exactly `tasks` (in that order): `--import --replace`.
    /// Each task gets a fresh key in its section, as `TaskList(tasks)` would give it, without
    /// building that list (a third copy of 100,000 tasks beside the store's and the changes).
    func replacing(with tasks: [TaskItem]) -> [TaskChange] {
        var changes: [TaskChange] = []
        changes.reserveCapacity(tasks.count)
        // Where each incoming task is here (-1: not here), found through the incoming ids
        // sorted: one sorted copy of the ids, not one of each side's (2.4 MB each at 100,000).
        var here = [Int32](repeating: -1, count: tasks.count)
        do {
            let incoming = SortedIDs(count: tasks.count) { add in for task in tasks { add(task.id) } }
            for position in 0..<count {
                var kept = false
                incoming.forEachPosition(of: self[position].id) { at in
                    here[at] = Int32(position)
                    kept = true
                }
                if !kept { changes.append(.delete(self[position])) }
            }
        }
        for section in Section.allCases {
            var keys = OrderKey.sequence(tasks.reduce(0) { $0 + ($1.section == section ? 1 : 0) }).makeIterator()
            for index in tasks.indices where tasks[index].section == section {
                var task = tasks[index]
                task.order = keys.next()!
                if here[index] >= 0 {
                    let current = self[Int(here[index])]
                    let fields = TaskFields(allOf: task)
                    if !fields.hold(in: current) { changes.append(.set(task.id, fields, was: fields.values(in: current))) }
                } else {
                    changes.append(.add(task))
                }
            }
        }
        return changes
    }
}
