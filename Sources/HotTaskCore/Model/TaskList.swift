import FoundationEssentials
import Glibc

/// All tasks, kept as two sections (Top Priority first, then Bonus), each in the order of
/// its tasks' `order` keys (ties by id, so every copy shows the same order).
///
/// Tasks are addressed by a *position*: 0 is the first Top Priority task, positions run on
/// into Bonus. Counts are kept up to date by every change so that asking for them costs
/// nothing, whatever the length of the list (the UI asks on every frame).
///
/// Its parts are in `TaskList*.swift`: the container here, the merge rules (`TaskListMerging`),
/// many changes in one pass (`TaskListBulk`), and the changes a request makes
/// (`TaskListChangeBuilders`). The sections are set only there (`internal(set)`: Swift has no
/// access level for one type's files).
public struct TaskList: Equatable, Sendable {
    // A `didSet` that does not read the old value keeps changes in place (SE-0268).
    public internal(set) var priority: [TaskItem] = [] { didSet { revision &+= 1 } }
    public internal(set) var bonus: [TaskItem] = [] { didSet { revision &+= 1 } }
    public internal(set) var completedCount = 0
    /// The lists the store names (see `ListNames`), as its snapshot and log say.
    public internal(set) var lists = ListNames.initial { didSet { revision &+= 1 } }
    /// Counts changes to the tasks and lists: what is derived from them (the app's list bar)
    /// is made again only when it moved. No part of equality.
    public private(set) var revision = 0
    /// The tasks and completed tasks of each list but the default one, by what its tasks store,
    /// kept up to date where `completedCount` is: a list's progress costs a look-up, and a
    /// store of one list pays a check of an empty name per change.
    public internal(set) var listCounts: [String: ListCount] = [:]
    /// Deleted tasks by id.
    var deleted: [UUID: Tombstone] = [:]
    /// Where each task is, built on the first change applied by id and kept up to date after:
    /// finding a task costs a dictionary look-up and a binary search, not a scan. While
    /// `withTasksIndexed` runs, it holds only the tasks `partialIndexNames` names.
    var placeIndex: [UUID: Place]?
    /// The ids a partial index was made for (nil for none, or the index of every task): any
    /// other id is found by a scan, never taken for absent.
    var partialIndexNames: IDTable?

    struct Place: Equatable, Sendable {
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
    static func splitBySection<S: Sequence>(_ tasks: S) -> (priority: [TaskItem], bonus: [TaskItem]) where S.Element == TaskItem {
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
    static func giveOrderKeys(_ tasks: inout [TaskItem]) {
        let keys = OrderKey.sequence(tasks.count)
        for index in tasks.indices { tasks[index].order = keys[index] }
    }

    /// Builds a list from tasks already split by section, each in the order read (the store
    /// reader's path: no third copy of the tasks). `keyed`: they keep their order keys, sorted
    /// only when not in order; otherwise they get fresh keys keeping the order given, as
    /// `init(_:)` gives them. `givingKeys` false leaves tasks without keys as they are: only for a
    /// list that is taken apart at once (`takeAll`), never shown or saved.
    init(
        priority priorityTasks: consuming [TaskItem], bonus bonusTasks: consuming [TaskItem], keyed: Bool, givingKeys: Bool = true,
        deleted: [Tombstone] = []
    ) {
        func prepare(_ tasks: inout [TaskItem]) {
            if keyed {
                Self.sortIfNeeded(&tasks)
            } else if givingKeys {
                Self.giveOrderKeys(&tasks)
            }
        }
        prepare(&priorityTasks)
        prepare(&bonusTasks)
        setSection(.priority, priorityTasks)
        setSection(.bonus, bonusTasks)
        for tombstone in deleted { self.deleted[tombstone.task.id] = tombstone }
    }

    mutating func setSection(_ section: Section, _ tasks: [TaskItem]) {
        if section == .priority { priority = tasks } else { bonus = tasks }
        completedCount += tasks.reduce(0) { $0 + ($1.completed ? 1 : 0) }
        for index in tasks.indices where !tasks[index].list.isEmpty { countList(tasks[index], 1) }
    }

    /// Equal when they show the same tasks with the same fields and keep the same tombstones.
    public static func == (a: TaskList, b: TaskList) -> Bool {
        a.priority == b.priority && a.bonus == b.bonus && a.deleted == b.deleted && a.lists == b.lists
    }

    /// Display order: by key, then by id (as its text sorts, compared as numbers).
    static func precedes(_ a: TaskItem, _ b: TaskItem) -> Bool {
        a.order != b.order ? a.order < b.order : UUIDBytes.sortKey(a.id) < UUIDBytes.sortKey(b.id)
    }

    public var count: Int { priority.count + bonus.count }
    var isEmpty: Bool { count == 0 }

    /// All tasks in display order.
    public var all: [TaskItem] { priority + bonus }

    /// All tasks in display order, taken from the list: the Top Priority array becomes the
    /// result, so no third copy of the tasks is made (a store read as an import). The list is left
    /// empty.
    mutating func takeAll() -> [TaskItem] {
        var tasks = priority
        priority = []
        // Room for exactly both: grown by doubling, a 100,000-task file's array was 22 MB, not 17.
        tasks.reserveCapacity(tasks.count + bonus.count)
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

    /// Whether `position(of:)` and `task(withID:)` cost a hash and a search, not a scan.
    public var isIndexedByID: Bool { placeIndex != nil && partialIndexNames == nil }

    public func task(withID id: UUID) -> TaskItem? {
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

    func locate(_ id: UUID) -> (section: Section, index: Int)? {
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

    /// Builds the id index now (once; changes keep it): for the app before a key that looks
    /// up parents one by one, which without it is a scan of the list each.
    public mutating func prepareIDLookups() {
        buildPlaceIndex()
    }

    /// `indexedByID` in place.
    mutating func buildPlaceIndex() {
        guard placeIndex == nil || partialIndexNames != nil else { return }
        placeIndex = places(room: count) { _ in true }
        partialIndexNames = nil
    }

    /// The places of the tasks whose ids `keep` accepts.
    func places(room: Int, of keep: (UUID) -> Bool) -> [UUID: Place] {
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
    func insertionIndex(of task: TaskItem) -> Int {
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

    mutating func insert(_ task: TaskItem) -> ListEdit {
        let index = insertionIndex(of: task)
        if task.section == .priority { priority.insert(task, at: index) } else { bonus.insert(task, at: index) }
        if task.completed { completedCount += 1 }
        countList(task, 1)
        placeIndex?[task.id] = Place(section: task.section, order: task.order)
        return .inserted(task, at: index)
    }

    mutating func remove(_ section: Section, at index: Int) -> ListEdit {
        let task = section == .priority ? priority.remove(at: index) : bonus.remove(at: index)
        if task.completed { completedCount -= 1 }
        countList(task, -1)
        placeIndex?[task.id] = nil
        return .removed(task, at: index)
    }

    /// Puts `new` where `old` (at `index` of its section) was: in place when its place in the
    /// order is the same, else out and in again.
    mutating func replace(_ old: TaskItem, at index: Int, with new: TaskItem) -> [ListEdit] {
        guard old.section == new.section else {
            return [remove(old.section, at: index), insert(new)]
        }
        guard old.order == new.order else { return move(old, at: index, to: new) }
        if new.section == .priority { priority[index] = new } else { bonus[index] = new }
        completedCount += (new.completed ? 1 : 0) - (old.completed ? 1 : 0)
        if old.list != new.list || old.completed != new.completed {
            countList(old, -1)
            countList(new, 1)
        }
        return [.replaced(old: old, new: new, at: index)]
    }

    /// `replace` for a task that keeps its section and takes a new place in it: only the tasks
    /// between its old place and its new one shift (out and in again shifted every task after
    /// each place, two moves of 15 MB for each task of a family moved at 100,000 tasks). The
    /// edits are the ones out and in again give.
    private mutating func move(_ old: TaskItem, at index: Int, to new: TaskItem) -> [ListEdit] {
        // Among the tasks as they are, `old` still at `index`: one ahead of the new place when
        // it comes before it (kept within the section: a list read out of order from a file).
        let found = insertionIndex(of: new)
        let target = min(max(Self.precedes(old, new) ? found - 1 : found, 0), tasks(in: new.section).count - 1)
        func shift(_ tasks: inout [TaskItem]) {
            tasks.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                base[index] = new
                guard target != index else { return }
                let moving = (base + index).move()
                if target > index {
                    (base + index).moveInitialize(from: base + index + 1, count: target - index)
                } else {
                    (base + target + 1).moveInitialize(from: base + target, count: index - target)
                }
                (base + target).initialize(to: moving)
            }
        }
        if new.section == .priority { shift(&priority) } else { shift(&bonus) }
        completedCount += (new.completed ? 1 : 0) - (old.completed ? 1 : 0)
        if old.list != new.list || old.completed != new.completed {
            countList(old, -1)
            countList(new, 1)
        }
        placeIndex?[new.id] = Place(section: new.section, order: new.order)
        return [.removed(old, at: index), .inserted(new, at: target)]
    }
}
