import Foundation

/// A task deleted, kept so that an older copy of it never comes back and a later change to
/// it can (see `TaskList.apply`).
struct Tombstone: Equatable, Sendable {
    var task: TaskItem
    /// When it was deleted.
    var clock: Clock
}

/// All tasks, kept as two sections (Top Priority first, then Bonus), each in the order of
/// its tasks' `order` keys (ties by id, so every copy shows the same order).
///
/// Tasks are addressed by a *position*: 0 is the first Top Priority task, positions run on
/// into Bonus. Counts are kept up to date by every change so that asking for them costs
/// nothing, whatever the length of the list (the UI asks on every frame).
public struct TaskList: Equatable, Sendable {
    public private(set) var priority: [TaskItem] = []
    public private(set) var bonus: [TaskItem] = []
    public private(set) var completedCount = 0
    /// Deleted tasks by id.
    private(set) var deleted: [UUID: Tombstone] = [:]
    /// Where each task is, built on the first change applied by id and kept up to date after:
    /// finding a task costs a dictionary look-up and a binary search, not a scan. While
    /// `withTasksIndexed` runs, it holds only the tasks `partialIndexNames` names.
    private var placeIndex: [UUID: Place]?
    /// The ids a partial index was made for (nil for none, or the index of every task): any
    /// other id is found by a scan, never taken for absent.
    private var partialIndexNames: IDTable?

    private struct Place: Equatable, Sendable {
        var section: Section
        var order: OrderKey
    }

    public init() {}

    /// Builds a list from tasks in display order; each task goes to the section it names and
    /// gets a fresh order key that keeps the order given (for old stores, imports and tests).
    public init<S: Sequence>(_ tasks: S) where S.Element == TaskItem {
        let (priorityTasks, bonusTasks) = Self.splitBySection(tasks)
        self.init(priority: priorityTasks, bonus: bonusTasks, keyed: false)
    }

    /// Builds a list from tasks that carry their own order keys (a store read back), and the
    /// tombstones of deleted ones.
    init(keyed tasks: [TaskItem], deleted: [Tombstone] = []) {
        let (priorityTasks, bonusTasks) = Self.splitBySection(tasks)
        self.init(priority: priorityTasks, bonus: bonusTasks, keyed: true, deleted: deleted)
    }

    /// Each section's tasks in the order given. Two arrays, not a dictionary of them: a section
    /// taken out of a dictionary to be keyed was copied whole. Room for all in each is only
    /// reserved (untouched room costs nothing).
    private static func splitBySection<S: Sequence>(_ tasks: S) -> (priority: [TaskItem], bonus: [TaskItem]) where S.Element == TaskItem {
        let room = tasks.underestimatedCount
        var priorityTasks: [TaskItem] = []
        var bonusTasks: [TaskItem] = []
        priorityTasks.reserveCapacity(room)
        bonusTasks.reserveCapacity(room)
        for task in tasks {
            if task.section == .priority { priorityTasks.append(task) } else { bonusTasks.append(task) }
        }
        return (priorityTasks, bonusTasks)
    }

    /// Fresh keys that keep the order the tasks are in.
    private static func giveOrderKeys(_ tasks: inout [TaskItem]) {
        let keys = OrderKey.sequence(tasks.count)
        for index in tasks.indices { tasks[index].order = keys[index] }
    }

    /// Builds a list from tasks already split by section, each in the order read (the store
    /// reader's path: no third copy of the tasks). `keyed`: they keep their order keys, sorted
    /// only when not in order; otherwise they get fresh keys keeping the order given, as
    /// `init(_:)` gives them.
    init(priority priorityTasks: consuming [TaskItem], bonus bonusTasks: consuming [TaskItem], keyed: Bool, deleted: [Tombstone] = []) {
        func prepare(_ tasks: inout [TaskItem]) {
            if keyed { Self.sortIfNeeded(&tasks) } else { Self.giveOrderKeys(&tasks) }
        }
        prepare(&priorityTasks)
        prepare(&bonusTasks)
        setSection(.priority, priorityTasks)
        setSection(.bonus, bonusTasks)
        for tombstone in deleted { self.deleted[tombstone.task.id] = tombstone }
    }

    private mutating func setSection(_ section: Section, _ tasks: [TaskItem]) {
        if section == .priority { priority = tasks } else { bonus = tasks }
        completedCount += tasks.reduce(0) { $0 + ($1.completed ? 1 : 0) }
    }

    /// Equal when they show the same tasks with the same fields and keep the same tombstones.
    public static func == (a: TaskList, b: TaskList) -> Bool {
        a.priority == b.priority && a.bonus == b.bonus && a.deleted == b.deleted
    }

    /// Display order: by key, then by id (as its text sorts, compared as numbers).
    static func precedes(_ a: TaskItem, _ b: TaskItem) -> Bool {
        a.order != b.order ? a.order < b.order : UUIDBytes.sortKey(a.id) < UUIDBytes.sortKey(b.id)
    }

    public var count: Int { priority.count + bonus.count }
    public var isEmpty: Bool { count == 0 }

    /// All tasks in display order.
    public var all: [TaskItem] { priority + bonus }

    /// All tasks in display order, taken from the list: the Top Priority array becomes the
    /// result, so no third copy of the tasks is made (a store read as an import). The list is left
    /// empty.
    mutating func takeAll() -> [TaskItem] {
        var tasks = priority
        priority = []
        tasks.append(contentsOf: bonus)
        self = TaskList()
        return tasks
    }

    public func tasks(in section: Section) -> [TaskItem] {
        section == .priority ? priority : bonus
    }

    public func count(in section: Section) -> Int {
        section == .priority ? priority.count : bonus.count
    }

    /// The task at a display position.
    public subscript(position: Int) -> TaskItem {
        position < priority.count ? priority[position] : bonus[position - priority.count]
    }

    /// The display position of the task at `index` within `section`.
    public func position(of index: Int, in section: Section) -> Int {
        section == .priority ? index : priority.count + index
    }

    public func position(of id: UUID) -> Int? {
        locate(id).map { position(of: $0.index, in: $0.section) }
    }

    func task(withID id: UUID) -> TaskItem? {
        locate(id).map { tasks(in: $0.section)[$0.index] }
    }

    /// The index within its section of the task at `position`.
    public func index(ofPosition position: Int) -> Int {
        position < priority.count ? position : position - priority.count
    }

    /// The section of the task at `position`.
    public func section(ofPosition position: Int) -> Section {
        position < priority.count ? .priority : .bonus
    }

    // MARK: Finding tasks

    private func locate(_ id: UUID) -> (section: Section, index: Int)? {
        if let placeIndex, partialIndexNames?.contains(id) ?? true {
            guard let place = placeIndex[id] else { return nil }
            let tasks = tasks(in: place.section)
            var low = 0
            var high = tasks.count
            while low < high {
                let middle = (low + high) / 2
                if tasks[middle].order < place.order { low = middle + 1 } else { high = middle }
            }
            // Tasks with the same key (made on two machines at once) sit together.
            while low < tasks.count, tasks[low].order == place.order {
                if tasks[low].id == id { return (place.section, low) }
                low += 1
            }
            return nil
        }
        if let index = priority.firstIndex(where: { $0.id == id }) { return (.priority, index) }
        if let index = bonus.firstIndex(where: { $0.id == id }) { return (.bonus, index) }
        return nil
    }

    /// This list with its id index built, for a caller about to look up many tasks by id
    /// (a sync, an import, a commit of many changes): `task(withID:)` then costs a hash and a
    /// binary search instead of a scan. A list read from the store has no index until a change
    /// is applied to it with `apply`, so that commands that never look up by id (`--list`) do not
    /// pay for one. The task arrays are shared, not copied.
    func indexedByID() -> TaskList {
        var indexed = self
        indexed.buildPlaceIndex()
        return indexed
    }

    /// `indexedByID` in place.
    mutating func buildPlaceIndex() {
        guard placeIndex == nil || partialIndexNames != nil else { return }
        placeIndex = places(room: count) { _ in true }
        partialIndexNames = nil
    }

    /// The places of the tasks whose ids `keep` accepts.
    private func places(room: Int, of keep: (UUID) -> Bool) -> [UUID: Place] {
        var index: [UUID: Place] = [:]
        index.reserveCapacity(room)
        // By index: `for task in` copies each task out, a retain and release of its caption.
        for position in priority.indices where keep(priority[position].id) {
            index[priority[position].id] = Place(section: .priority, order: priority[position].order)
        }
        for position in bonus.indices where keep(bonus[position].id) {
            index[bonus[position].id] = Place(section: .bonus, order: bonus[position].order)
        }
        return index
    }

    /// Where a task with this key goes in its section.
    private func insertionIndex(of task: TaskItem) -> Int {
        let tasks = tasks(in: task.section)
        // After the last one (an import's adds, each at the end): no search.
        if let last = tasks.last, Self.precedes(last, task) { return tasks.count }
        var low = 0
        var high = tasks.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(tasks[middle], task) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func insert(_ task: TaskItem) -> ListEdit {
        let index = insertionIndex(of: task)
        if task.section == .priority { priority.insert(task, at: index) } else { bonus.insert(task, at: index) }
        if task.completed { completedCount += 1 }
        placeIndex?[task.id] = Place(section: task.section, order: task.order)
        return .inserted(task, at: index)
    }

    private mutating func remove(_ section: Section, at index: Int) -> ListEdit {
        let task = section == .priority ? priority.remove(at: index) : bonus.remove(at: index)
        if task.completed { completedCount -= 1 }
        placeIndex?[task.id] = nil
        return .removed(task, at: index)
    }

    /// Puts `new` where `old` (at `index` of its section) was: in place when its place in the
    /// order is the same, else out and in again.
    private mutating func replace(_ old: TaskItem, at index: Int, with new: TaskItem) -> [ListEdit] {
        guard old.section == new.section, old.order == new.order else {
            return [remove(old.section, at: index), insert(new)]
        }
        if new.section == .priority { priority[index] = new } else { bonus[index] = new }
        completedCount += (new.completed ? 1 : 0) - (old.completed ? 1 : 0)
        return [.replaced(old: old, new: new, at: index)]
    }

    // MARK: Applying changes

    /// Applies one change stamped `clock` and says how rows moved.
    ///
    /// Field by field, the later stamp wins: a change older than a field's stamp leaves that
    /// field alone, so two changes to different fields of one task both hold whatever order
    /// they arrive in. A delete older than a change to the task is ignored; a change newer
    /// than a delete brings the task back. `force` applies the change whatever the stamps
    /// (the UI's own change, shown before the store has stamped it).
    @discardableResult
    public mutating func apply(_ change: TaskChange, clock: Clock, force: Bool = false) -> [ListEdit] {
        buildPlaceIndex()
        return applyFound(change, clock: clock, force: force)
    }

    /// `apply`, finding the task through the id index when there is one, else by a scan (a
    /// few changes: the index of 100,000 tasks takes 10 MB and longer to build than a scan).
    private mutating func applyFound(_ change: TaskChange, clock: Clock, force: Bool) -> [ListEdit] {
        let wins = { (fieldClock: Clock) in force || clock >= fieldClock }
        switch change {
        case .add(let task):
            if let (section, index) = locate(task.id) {
                return set(TaskFields(allOf: task), on: tasks(in: section)[index], at: index, clock: clock, force: force)
            }
            return addNew(task, clock: clock, force: force).map { [$0] } ?? []
        case .set(let id, let fields, _):
            if let (section, index) = locate(id) {
                return set(fields, on: tasks(in: section)[index], at: index, clock: clock, force: force)
            }
            // A change made after the task was deleted brings it back, changed.
            guard let tombstone = deleted[id], force || clock > tombstone.clock else { return [] }
            deleted[id] = nil
            let inserted = insert(tombstone.task)
            return [inserted] + set(fields, on: tombstone.task, at: inserted.index, clock: clock, force: true)
        case .delete(let task):
            guard let (section, index) = locate(task.id) else { return [] }
            let current = tasks(in: section)[index]
            guard wins(current.latestClock) else { return [] }
            deleted[task.id] = Tombstone(task: current, clock: clock)
            return [remove(section, at: index)]
        }
    }

    /// Adds a task whose id is not in the list, unless a later delete of it wins.
    @discardableResult
    private mutating func addNew(_ task: TaskItem, clock: Clock, force: Bool) -> ListEdit? {
        admitting(task, clock: clock, force: force).map { insert($0) }
    }

    /// `task` as an add stamped `clock` puts it in the list (its tombstone gone), or nil when a
    /// later delete of it wins.
    private mutating func admitting(_ task: TaskItem, clock: Clock, force: Bool) -> TaskItem? {
        // One lookup of the tombstones, not two (a hash each, 30,000 of them in the undo of a clear).
        if let tombstone = deleted.removeValue(forKey: task.id), !force, clock <= tombstone.clock {
            deleted[task.id] = tombstone  // the delete is the later: it stands
            return nil
        }
        var added = task
        added.clocks = FieldClocks(clock)
        return added
    }

    private mutating func set(_ fields: TaskFields, on old: TaskItem, at index: Int, clock: Clock, force: Bool) -> [ListEdit] {
        guard let new = Self.merging(fields, into: old, clock: clock, force: force) else { return [] }
        return replace(old, at: index, with: new)
    }

    /// `old` with the fields whose stamps `clock` wins, or nil when that changes nothing.
    private static func merging(_ fields: TaskFields, into old: TaskItem, clock: Clock, force: Bool) -> TaskItem? {
        var new = old
        let wins = { (fieldClock: Clock) in force || clock >= fieldClock }
        if let caption = fields.caption, wins(old.clocks.caption) {
            new.caption = caption
            new.clocks.caption = clock
        }
        if let section = fields.section, wins(old.clocks.section) {
            new.section = section
            new.clocks.section = clock
        }
        if let completed = fields.completed, wins(old.clocks.completed) {
            new.completed = completed
            new.completedAt = completed ? (fields.completedAt ?? old.completedAt ?? clock.date) : nil
            new.clocks.completed = clock
        }
        if let order = fields.order, wins(old.clocks.order) {
            new.order = order
            new.clocks.order = clock
        }
        if let due = fields.due, wins(old.clocks.due) {
            new.due = due
            new.clocks.due = clock
        }
        guard new != old else { return nil }
        if new.withoutClocks != old.withoutClocks { new.modifiedAt = max(old.modifiedAt, clock.date) }
        return new
    }

    /// `apply(_:clock:)` for a caller that has no use for the row edits (a commit, a replay of
    /// the log): no array of edits, each holding a copy of its task, is built only to be dropped.
    mutating func applyAll(_ changes: [TaskChange], clock: Clock) {
        // A large batch (an import, a --replace, the undo of one) is applied in bulk: one change
        // at a time, every move shifts a section's array (a --replace of 100,000 tasks whose
        // keys all moved took 25 s).
        guard changes.count < Self.bulkBatch else {
            // Tasks all new to the list need no lookup at all (the id index of 100,000 took 10 MB).
            if placeIndex == nil, addsOnlyNewTasks(changes) {
                addInBulk(changes, clock: clock)
            } else {
                applyInBulk(changes, clock: clock)
            }
            return
        }
        withTasksIndexed(namedIn: changes) { list in
            for change in changes { _ = list.applyFound(change, clock: clock, force: false) }
        }
    }

    /// Applies records in turn, each stamped with its clock (a replay of the log). The tasks a
    /// run of them names are found through one index of those tasks; a bulk record finds its own.
    mutating func applyAll(records: [(changes: [TaskChange], clock: Clock)]) {
        var start = 0
        while start < records.count {
            guard records[start].changes.count < Self.bulkBatch else {
                applyAll(records[start].changes, clock: records[start].clock)
                start += 1
                continue
            }
            var end = start
            while end < records.count, records[end].changes.count < Self.bulkBatch { end += 1 }
            let run = records[start..<end]
            withTasksIndexed(namedIn: run.flatMap(\.changes)) { list in
                for record in run { list.applyAll(record.changes, clock: record.clock) }
            }
            start = end
        }
    }

    /// Runs `body` with the tasks `changes` name found through an id index of those tasks
    /// alone, made in one pass over the list; the index of every task took 10 MB and 25 ms at
    /// 100,000 tasks, which every start with a log paid. Any other task is still found, by a
    /// scan. The index is dropped afterwards. A list with the full index, or a few changes
    /// (found by a scan each), needs none.
    mutating func withTasksIndexed(namedIn changes: [TaskChange], _ body: (inout TaskList) -> Void) {
        guard placeIndex == nil, changes.count > Self.changesFoundByScan else { return body(&self) }
        var named = IDTable(count: changes.count)
        for change in changes { named.insert(change.id) }
        placeIndex = places(room: named.count) { named.contains($0) }
        partialIndexNames = named
        body(&self)
        if partialIndexNames != nil {
            placeIndex = nil
            partialIndexNames = nil
        }
    }

    /// Up to this many changes find their tasks by scanning the list rather than through an id
    /// index built for them.
    static let changesFoundByScan = 16
    /// From this many changes on, `applyAll` applies them in bulk (and needs no id index).
    static let bulkBatch = 1024

    /// Adds of tasks new to the list: each goes at the end of its section, and a section is
    /// sorted once if the adds did not all come after its last task (an import's do).
    private mutating func addInBulk(_ changes: [TaskChange], clock: Clock, force: Bool = false) {
        var adds: [Section: Int] = [:]
        for case .add(let task) in changes { adds[task.section, default: 0] += 1 }
        priority.reserveCapacity(priority.count + (adds[.priority] ?? 0))
        bonus.reserveCapacity(bonus.count + (adds[.bonus] ?? 0))
        let (priorityBefore, bonusBefore) = (priority.count, bonus.count)
        for case .add(let task) in changes {
            guard let added = admitting(task, clock: clock, force: force) else { continue }
            if added.section == .priority { priority.append(added) } else { bonus.append(added) }
            if added.completed { completedCount += 1 }
        }
        Self.mergeAppended(&priority, from: priorityBefore)
        Self.mergeAppended(&bonus, from: bonusBefore)
    }

    /// Puts tasks appended after `start` in display order among those before it (which are in
    /// it): the appended ones are sorted, then the two runs merged, O(n + k log k) where a sort
    /// of the whole section took 100,000 comparisons of whole tasks more.
    static func mergeAppended(_ tasks: inout [TaskItem], from start: Int) {
        guard start > 0, start < tasks.count else { return sortIfNeeded(&tasks) }
        var tail = Array(start..<tasks.count)
        tail.sort { precedes(tasks[$0], tasks[$1]) }
        if precedes(tasks[start - 1], tasks[tail[0]]) {
            return tasks.rearrange(takingFrom: Array(0..<start) + tail)
        }
        var order: [Int] = []
        order.reserveCapacity(tasks.count)
        var head = 0
        var next = 0
        while head < start && next < tail.count {
            if precedes(tasks[tail[next]], tasks[head]) {
                order.append(tail[next])
                next += 1
            } else {
                order.append(head)
                head += 1
            }
        }
        order.append(contentsOf: head..<start)
        order.append(contentsOf: tail[next...])
        tasks.rearrange(takingFrom: order)
    }

    /// Any large batch: each change is applied to its task where it stands (found through the
    /// ids sorted), exactly as `apply` would one by one, and the sections are then tidied and
    /// sorted once. The sections are changed in place: rebuilding them held every task twice.
    private mutating func applyInBulk(_ changes: [TaskChange], clock: Clock, force: Bool = false) {
        placeIndex = nil
        partialIndexNames = nil
        let positions = SortedIDs(self)  // display positions: Top Priority's, then Bonus's
        let inPriority = priority.count
        var live = [Bool](repeating: true, count: count)
        // Tasks this batch adds or brings back, numbered on after the list's, and by id.
        var brought: [TaskItem] = []
        var broughtLive: [Bool] = []
        var broughtAt: [UUID: Int] = [:]
        func find(_ id: UUID) -> Int? {
            if let position = positions.position(of: id), live[position] { return position }
            if let at = broughtAt[id], broughtLive[at] { return live.count + at }
            return nil
        }
        func task(at position: Int) -> TaskItem {
            position < inPriority ? priority[position] : position < live.count ? bonus[position - inPriority] : brought[position - live.count]
        }
        func replace(at position: Int, with task: TaskItem) {
            if position < inPriority {
                priority[position] = task
            } else if position < live.count {
                bonus[position - inPriority] = task
            } else {
                brought[position - live.count] = task
            }
        }
        func bring(_ task: TaskItem) {
            broughtAt[task.id] = brought.count
            brought.append(task)
            broughtLive.append(true)
        }
        for change in changes {
            switch change {
            case .add(let new):
                if let at = find(new.id) {
                    if let merged = Self.merging(TaskFields(allOf: new), into: task(at: at), clock: clock, force: force) {
                        replace(at: at, with: merged)
                    }
                    continue
                }
                if let added = admitting(new, clock: clock, force: force) { bring(added) }
            case .set(let id, let fields, _):
                if let at = find(id) {
                    if let merged = Self.merging(fields, into: task(at: at), clock: clock, force: force) { replace(at: at, with: merged) }
                    continue
                }
                // A change made after the task was deleted brings it back, changed.
                guard let tombstone = deleted[id], force || clock > tombstone.clock else { continue }
                deleted[id] = nil
                bring(Self.merging(fields, into: tombstone.task, clock: clock, force: true) ?? tombstone.task)
            case .delete(let gone):
                guard let at = find(gone.id), force || clock >= task(at: at).latestClock else { continue }
                deleted[gone.id] = Tombstone(task: task(at: at), clock: clock)
                if at < live.count { live[at] = false } else { broughtLive[at - live.count] = false }
            }
        }
        // Each section keeps, in place, its live tasks that are still its own; the rest move.
        var moving: [TaskItem] = []
        func keepOwn(_ tasks: inout [TaskItem], _ section: Section, from offset: Int) {
            var kept = 0
            for index in tasks.indices where live[offset + index] {
                if tasks[index].section == section {
                    if kept != index { tasks.swapAt(kept, index) }
                    kept += 1
                } else {
                    moving.append(tasks[index])
                }
            }
            tasks.removeLast(tasks.count - kept)
        }
        keepOwn(&priority, .priority, from: 0)
        keepOwn(&bonus, .bonus, from: inPriority)
        for (at, task) in brought.enumerated() where broughtLive[at] { moving.append(task) }
        brought = []
        for task in moving {
            if task.section == .priority { priority.append(task) } else { bonus.append(task) }
        }
        completedCount = priority.reduce(0) { $0 + ($1.completed ? 1 : 0) } + bonus.reduce(0) { $0 + ($1.completed ? 1 : 0) }
        Self.sortIfNeeded(&priority)
        Self.sortIfNeeded(&bonus)
    }

    /// Sorts into display order, if the tasks are not in it. Their positions are sorted and the
    /// tasks then moved once: sorting the tasks themselves took a scratch buffer of half of
    /// them (6 MB at 100,000 tasks).
    static func sortIfNeeded(_ tasks: inout [TaskItem]) {
        guard !isInOrder(tasks) else { return }
        var order = Array(tasks.indices)
        order.sort { precedes(tasks[$0], tasks[$1]) }
        tasks.rearrange(takingFrom: order)
    }

    /// By index: a pair of tasks copied out of the array (as `zip` gives them) cost a retain
    /// and release of each caption, 6 ms at 100,000 tasks.
    static func isInOrder(_ tasks: [TaskItem]) -> Bool {
        tasks.indices.dropFirst().allSatisfy { precedes(tasks[$0 - 1], tasks[$0]) }
    }

    /// True when every change adds a task whose id is neither in the list nor added twice.
    private func addsOnlyNewTasks(_ changes: [TaskChange]) -> Bool {
        guard changes.allSatisfy(\.isAdd) else { return false }
        guard let added = IDTable(distinct: changes.count, { add in for change in changes { add(change.id) } }) else { return false }
        return !priority.indices.contains { added.contains(priority[$0].id) } && !bonus.indices.contains { added.contains(bonus[$0].id) }
    }

    /// Applies many changes, all stamped `clock`, in one pass over the list (as `applyAll` does
    /// a large batch) and without row edits: for a caller that shows the list again whole
    /// afterwards (the UI clearing 30,000 completed tasks, or bringing them back). One at a
    /// time, each change shifted an array of the whole list: 2 s at 100,000 tasks.
    ///
    /// Returns the rows removed when the changes only delete (each section's indices, before
    /// the change, ascending), so that a view can follow without sorting again; nil otherwise.
    @discardableResult
    public mutating func applyInOnePass(_ changes: [TaskChange], clock: Clock, force: Bool = false) -> RemovedRows? {
        if changes.allSatisfy({ if case .delete = $0 { true } else { false } }) {
            return deleteInBulk(changes, clock: clock, force: force)
        } else if addsOnlyNewTasks(changes) {
            placeIndex = nil
            partialIndexNames = nil
            addInBulk(changes, clock: clock, force: force)
        } else {
            applyInBulk(changes, clock: clock, force: force)
        }
        return nil
    }

    /// Stamps `clock` on changes this list took already (forced, when a key made them) once the
    /// store has saved them under it, when that changes no value but the fields' clocks: what
    /// applying them again would do, without re-sorting the list or showing it again (the UI
    /// did that for 30,000 tasks after each save of a clear's undo). Returns false, changing
    /// nothing, when a task no longer holds what its change made (another program's change came
    /// between) or for sets: the caller then applies them the ordinary way.
    public mutating func restamp(_ changes: [TaskChange], clock: Clock) -> Bool {
        var positions = IDTable(count: count)
        for task in priority { positions.insert(task.id) }
        for task in bonus { positions.insert(task.id) }
        var stamped: [(position: Int, task: TaskItem)] = []
        for change in changes {
            switch change {
            case .add(let new):
                guard let position = positions.index(of: new.id) else { return false }
                let current = self[position]
                guard let merged = Self.merging(TaskFields(allOf: new), into: current, clock: clock, force: false) else { continue }
                guard merged.withoutClocks == current.withoutClocks else { return false }
                stamped.append((position, merged))
            case .delete(let gone):
                // Gone, as the delete left it: applying it again finds nothing to do.
                if positions.contains(gone.id) { return false }
            case .set:
                return false
            }
        }
        for (position, task) in stamped {
            if position < priority.count { priority[position] = task } else { bonus[position - priority.count] = task }
        }
        return true
    }

    /// Deletes alone: one sweep of each section, the named tasks found in a table of their ids.
    private mutating func deleteInBulk(_ changes: [TaskChange], clock: Clock, force: Bool) -> RemovedRows {
        var named = IDTable(count: changes.count)
        for change in changes { named.insert(change.id) }
        var tombstones: [Tombstone] = []
        // Each sweep gives its own indices: appending through `RemovedRows`' subscript would copy
        // the array on every append.
        // The tasks that go are swapped to the end and then moved out into their tombstones:
        // copying each (a retain of its caption, a cache miss) was most of a clear's time.
        func sweep(_ tasks: inout [TaskItem]) -> [Int] {
            var gone: [Int] = []
            var kept = 0
            for index in tasks.indices {
                if named.contains(tasks[index].id), force || clock >= tasks[index].latestClock {
                    gone.append(index)
                    continue
                }
                if kept != index { tasks.swapAt(kept, index) }
                kept += 1
            }
            tombstones.reserveCapacity(tombstones.count + tasks.count - kept)
            while tasks.count > kept { tombstones.append(Tombstone(task: tasks.removeLast(), clock: clock)) }
            return gone
        }
        var removed = RemovedRows()
        removed.priority = sweep(&priority)
        removed.bonus = sweep(&bonus)
        deleted.reserveCapacity(deleted.count + tombstones.count)
        while let tombstone = tombstones.popLast() {
            if tombstone.task.completed { completedCount -= 1 }
            deleted[tombstone.task.id] = tombstone
        }
        placeIndex = nil
        partialIndexNames = nil
        return removed
    }

    /// Applies changes in turn, all stamped `clock`.
    @discardableResult
    mutating func apply(_ changes: [TaskChange], clock: Clock, force: Bool = false) -> [ListEdit] {
        changes.flatMap { apply($0, clock: clock, force: force) }
    }

    // MARK: Making changes

    /// The key that puts a task on top of `section`.
    func topKey(of section: Section) -> OrderKey {
        OrderKey.between(nil, tasks(in: section).first?.order)
    }

    /// The key that puts a task at the end of `section`.
    func endKey(of section: Section) -> OrderKey {
        OrderKey.between(tasks(in: section).last?.order, nil)
    }

    /// The change that adds `task` on top of its section (the rule for tasks a person adds).
    public func adding(onTop task: TaskItem) -> TaskChange {
        var task = task
        task.order = topKey(of: task.section)
        return .add(task)
    }

    /// The change that gives the task at `position` a new caption, or nil when the caption is
    /// the same. The caption must already have passed `CaptionRule`.
    public func renaming(at position: Int, to caption: String) -> TaskChange? {
        let old = self[position]
        guard old.caption != caption else { return nil }
        return .set(old.id, TaskFields(caption: caption), was: TaskFields(caption: old.caption))
    }

    /// The change that gives the task at `position` the due date `due` (nil clears it), or nil
    /// when it already has it.
    public func dating(at position: Int, to due: DueDate?) -> TaskChange? {
        let old = self[position]
        guard old.due != due else { return nil }
        return .set(old.id, TaskFields(due: .some(due)), was: TaskFields(due: .some(old.due)))
    }

    /// The change that marks the task at `position` completed or open, or nil when it
    /// already is.
    public func completing(_ completed: Bool, at position: Int, now: Date) -> TaskChange? {
        let old = self[position]
        guard old.completed != completed else { return nil }
        return .set(
            old.id, TaskFields(completed: completed, completedAt: now),
            was: TaskFields(completed: old.completed, completedAt: old.completedAt))
    }

    /// The change that moves the task at `position` to `index` of `section` (an index in the
    /// section as it is once the task has left), or nil when it is there already. Only the
    /// moved task changes: it gets a key between its new neighbours.
    public func moving(from position: Int, to section: Section, index: Int) -> TaskChange? {
        let old = self[position]
        let tasks = tasks(in: section)
        let from = self.index(ofPosition: position)
        let sameSection = old.section == section
        if sameSection && from == index { return nil }
        // Indices among the section's other tasks, mapped onto the section without copying it.
        let othersCount = sameSection ? tasks.count - 1 : tasks.count
        let original = { (other: Int) in sameSection && other >= from ? other + 1 : other }
        let index = min(max(index, 0), othersCount)
        let key = OrderKey.between(
            index > 0 ? tasks[original(index - 1)].order : nil, index < othersCount ? tasks[original(index)].order : nil)
        let fields = TaskFields(section: old.section == section ? nil : section, order: key)
        return .set(old.id, fields, was: fields.values(in: old))
    }

    /// The change that deletes the task at `position`.
    public func deleting(at position: Int) -> TaskChange {
        .delete(self[position])
    }

    /// The changes that delete every completed task, in display order.
    public func removingCompleted() -> [TaskChange] {
        var changes: [TaskChange] = []
        changes.reserveCapacity(completedCount)
        // By index: `all` copied every task (a retain and release of each caption) to keep 30%.
        for index in priority.indices where priority[index].completed { changes.append(.delete(priority[index])) }
        for index in bonus.indices where bonus[index].completed { changes.append(.delete(bonus[index])) }
        return changes
    }
}
