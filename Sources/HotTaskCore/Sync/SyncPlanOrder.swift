import FoundationEssentials
import Glibc

/// Where a sync puts the tasks it pulls, and the order keys its writes carry.
extension SyncPlan {
    // MARK: Order

    /// Where a task from the server goes among its section here: before the first task whose
    /// known sort order is higher (its creation time when it has none: see `TodoMapping`).
    func effectiveSortOrder(_ todo: RemoteTodo) -> Int {
        todo.fields.sortOrder ?? Int((todo.lastModified ?? now).timeIntervalSinceReferenceDate)
    }

    /// The sort orders known here: the agreed ones of tasks not moved since.
    func knownSortOrders() -> [UUID: Int] {
        var known: [UUID: Int] = [:]
        for (key, entry) in base.entries {
            guard let sortOrder = entry.sortOrder, let id = UUID(uuidString: key), let task = working.task(withID: id),
                task.order.text == entry.orderKey
            else { continue }
            known[id] = sortOrder
        }
        return known
    }

    mutating func place() {
        var known = knownSortOrders()
        let ordered = placements.map({ ($0.id.uuidString, $0) }).sorted(by: { ($0.1.sortOrder, $0.0) < ($1.1.sortOrder, $1.0) }).map(\.1)
        // Only new tasks (a first pull of 60,000): the first task here with a higher known order
        // only moves on as the orders rise, so one walk per section finds every place.
        let walking = ordered.allSatisfy { $0.adding != nil }
        let here = walking ? [Section.priority: working.tasks(in: .priority), .bonus: working.tasks(in: .bonus)] : [:]
        var walked: [Section: (next: Int, last: OrderKey)] = [:]
        for placement in ordered {
            known[placement.id] = nil
            let others = here[placement.section] ?? working.tasks(in: placement.section).filter { $0.id != placement.id }
            var next = walking ? walked[placement.section]?.next ?? 0 : 0
            while next < others.count && !(known[others[next].id].map { $0 > placement.sortOrder } ?? false) { next += 1 }
            // After the tasks placed before the same neighbour already.
            let placed = walked[placement.section].flatMap { $0.next == next ? $0.last : nil }
            let orderKey = OrderKey.between(placed ?? (next > 0 ? others[next - 1].order : nil), next < others.count ? others[next].order : nil)
            if walking { walked[placement.section] = (next, orderKey) }
            if var task = placement.adding {
                task.order = orderKey
                apply(.add(task))
            } else if let task = working.task(withID: placement.id) {
                let fields = TaskFields(section: task.section == placement.section ? nil : placement.section, order: orderKey)
                apply(.set(task.id, fields, was: fields.values(in: task)))
            }
            known[placement.id] = placement.sortOrder
            agreed[placement.id.uuidString.lowercased()]?.orderKey = working.task(withID: placement.id)?.order.text ?? ""
            if pending[placement.id] != nil { pending[placement.id]?.fields.sortOrder = placement.sortOrder }
        }
    }

    /// Sort orders for the writes whose place here won, spread between the nearest known
    /// neighbours; then each write's calendar text.
    mutating func finishWrites() {
        var known = knownSortOrders()
        for placement in placements { known[placement.id] = placement.sortOrder }
        for section in Section.allCases {
            let tasks = working.tasks(in: section)
            var run: [UUID] = []
            var lower: Int?
            func assign(upper: Int?) {
                guard !run.isEmpty else { return }
                let values: [Int]
                switch (lower, upper) {
                case (let low?, let high?) where high - low > run.count:
                    let step = (high - low) / (run.count + 1)
                    values = (1...run.count).map { low + $0 * step }
                case (let low?, _):
                    values = (1...run.count).map { low + $0 }
                case (nil, let high?):
                    values = (1...run.count).map { high - (run.count + 1 - $0) }
                case (nil, nil):
                    values = Array(0..<run.count)
                }
                for (id, value) in zip(run, values) { pending[id]?.fields.sortOrder = value }
                run = []
            }
            for task in tasks {
                if pending[task.id]?.followsLocalOrder == true {
                    run.append(task.id)
                } else if let value = known[task.id] {
                    assign(upper: value)
                    lower = value
                }
            }
            assign(upper: nil)
        }
        let pendingUIDs = pending.mapValues(\.uid)
        for (_, id, write) in pending.map({ ($0.key.uuidString, $0.key, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            guard let task = working.task(withID: id) else { continue }
            var fields = write.fields
            fields.section = task.section
            var nextOccurrence = false
            if fields.completed, let todo = write.calendar.flatMap(Self.masterTodo), todo.first("STATUS")?.value.uppercased() != "COMPLETED" {
                switch Recurrence.advance(todo) {
                case .unsupported(let reason):
                    // Not written: completing it there would complete every occurrence.
                    counts.problems.append(
                        "\"\(CaptionRule.shown(fields.caption))\" repeats by a rule HotTask cannot step (\(reason)); complete it in your calendar app"
                    )
                    continue
                case .next:
                    nextOccurrence = true
                case .notRepeating, .lastOccurrence:
                    break
                }
            }
            let calendar = TodoMapping.write(
                fields, uid: write.uid, clocks: write.times, created: write.created, onto: write.calendar, now: now,
                parentUID: { id in
                    // A parent from the server is named by its UID there; one written this round
                    // by the UID it is written with (an imported Tasks.org task keeps its own).
                    if case .changed(let todo, _, _)? = remote[id] { return todo.uid }
                    return base.entries[id.uuidString.lowercased()]?.uid ?? pendingUIDs[id]
                        ?? (carried.isEmpty ? nil : carried[id, .iCalendar].flatMap(ICalendarCarry.uid(ofRecord:)))
                })
            // The series moved on there: completed here, or stepped from its DTSTART, or past an
            // occurrence a phone changed on its own (its text goes with it). What the phone now
            // shows is what this list shows too, so that both sides agree. (Read back only where
            // it can have moved: a first upload read every task it wrote a second time.)
            if nextOccurrence || (!fields.completed && fields.due != nil), let shown = TodoMapping.read(calendar).todo?.fields,
                nextOccurrence || shown.due != fields.due
            {
                var adopted = TaskFields()
                for field in TaskField.shared where shown[field] != field.value(of: task) { adopted[field] = shown[field] }
                if !adopted.isEmpty { apply(.set(id, adopted, was: adopted.values(in: task))) }
                let order = fields.sortOrder
                fields = shown
                fields.sortOrder = order
                counts.pulled += 1
            }
            var entry = SyncBase.Entry(
                uid: write.uid, href: write.href, etag: nil, fields: fields, orderKey: task.order.text,
                clocks: StoreDocument.clockText(write.times), calendar: calendar.text)
            entry.movedFrom = write.movedFrom
            pushes.append(SyncEngine.Push(id: id, href: write.href, etag: write.etag, entry: entry, isNew: write.isNew, movedFrom: write.movedFrom))
        }
    }
}
