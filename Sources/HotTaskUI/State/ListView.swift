import HotTaskCore

/// Which tasks the list shows, and in what order: the sort mode, "completed last" and the
/// filter, turned into a mapping between display positions and task positions.
///
/// With Manual order, completed tasks in place and no filter the mapping is the identity and
/// no array is built. Otherwise each section keeps the indices it shows, in order: built once
/// when the sort or filter changes, narrowed when the filter text grows, and updated in place
/// by each `ListEdit` (binary search, no re-sort), so that moving the selection and drawing
/// a frame stay O(1) per row however long the list is.
public struct ListView: Equatable, Sendable {
    public private(set) var sort = SortMode.manual
    public private(set) var completedLast = false
    /// The filter text; empty when not filtering.
    public private(set) var query = ""

    /// Sorted indices per section (before filtering); nil for the identity.
    private var sorted: SectionOrders?
    /// Indices shown per section (sorted, then filtered); nil when not filtering.
    private var filtered: SectionOrders?
    /// Each task's caption folded for the filter, per section and index: made once, kept up
    /// to date by `apply`, so that a filter keystroke only searches bytes.
    private var folded = FoldedCaptions()

    public init() {}

    public var isFiltering: Bool { !query.isEmpty }
    /// True when display order is stored order: reordering by hand makes sense.
    public var isManualOrder: Bool { sort == .manual && !completedLast }
    private var ordering: TaskOrdering { TaskOrdering(sort: sort, completedLast: completedLast) }
    private var shown: SectionOrders? { filtered ?? sorted }

    // MARK: Mapping

    /// How many tasks of `section` are shown.
    public func count(in section: Section, of list: TaskList) -> Int {
        shown?[section].count ?? list.count(in: section)
    }

    public func count(of list: TaskList) -> Int {
        count(in: .priority, of: list) + count(in: .bonus, of: list)
    }

    /// The section and index within it of the task at a display position. O(1).
    public func place(ofDisplay display: Int, in list: TaskList) -> (section: Section, index: Int) {
        let priorityCount = count(in: .priority, of: list)
        if display < priorityCount {
            return (.priority, shown?.priority[display] ?? display)
        }
        let offset = display - priorityCount
        return (.bonus, shown?.bonus[offset] ?? offset)
    }

    /// The task position shown at a display position. O(1).
    public func position(ofDisplay display: Int, in list: TaskList) -> Int {
        let place = place(ofDisplay: display, in: list)
        return list.position(of: place.index, in: place.section)
    }

    /// The display position of the task at `index` of `section`, or nil when it is filtered
    /// out. O(1) for the identity; otherwise a search (used after changes, not per key).
    public func display(ofIndex index: Int, in section: Section, of list: TaskList) -> Int? {
        let before = section == .priority ? 0 : count(in: .priority, of: list)
        guard let order = shown?[section] else { return before + index }
        return order.firstIndex(of: index).map { before + $0 }
    }

    // MARK: Changing the view

    /// Forgets the folded captions (at start, and when the list was read again in full): they
    /// are folded again by `foldCaptions`, or by the first filter keystroke, not here, so that
    /// the first frame never waits for 100,000 captions to be folded.
    public mutating func prepareFilter(_ list: TaskList) {
        folded = FoldedCaptions()
    }

    /// Folds every caption of `list` for the filter unless they are folded already: the app
    /// calls it right after drawing its first frame, so the first filter keystroke does not
    /// pay for it either.
    public mutating func foldCaptions(_ list: TaskList) {
        folded.check(list)
    }

    /// Sets sort mode and "completed last", sorting once.
    public mutating func setOrder(_ sort: SortMode, completedLast: Bool, list: TaskList) {
        self.sort = sort
        self.completedLast = completedLast
        rebuild(list)
    }

    /// Sets the filter text: narrows the current result when the text only grew, otherwise
    /// scans the (sorted) list once.
    public mutating func setQuery(_ query: String, list: TaskList) {
        let previous = self.query
        self.query = query
        guard !query.isEmpty else {
            filtered = nil
            return
        }
        folded.check(list)
        if TaskFilter.narrows(query, from: previous), let current = filtered {
            filtered = current.keeping(matching: query, folded: folded)
        } else {
            filterFromSorted(list)
        }
    }

    /// Brings the view up to date after `change` was applied to `list` (which is the list
    /// after the change). O(n) at worst for index shifting; no sorting, no scan of captions.
    public mutating func apply(_ change: ListEdit, list: TaskList) {
        folded.apply(change)
        guard sorted != nil || filtered != nil else { return }
        let section = change.section
        let tasks = list.tasks(in: section)
        let ordering = ordering
        let matcher = filtered == nil ? nil : TaskFilter.Matcher(query)
        func update(_ orders: inout SectionOrders?, onlyMatching: Bool) {
            guard var order = orders?[section] else { return }
            switch change {
            case .inserted(let task, let index):
                order = order.map { $0 >= index ? $0 + 1 : $0 }
                if !onlyMatching || matcher?.matches(caption: task.caption) == true {
                    order.insert(index, at: ordering.insertionPoint(of: index, in: order, tasks: tasks))
                }
            case .removed(_, let index):
                order.removeAll { $0 == index }
                order = order.map { $0 > index ? $0 - 1 : $0 }
            case .replaced(_, let new, let index):
                order.removeAll { $0 == index }
                if !onlyMatching || matcher?.matches(caption: new.caption) == true {
                    order.insert(index, at: ordering.insertionPoint(of: index, in: order, tasks: tasks))
                }
            }
            orders?[section] = order
        }
        update(&sorted, onlyMatching: false)
        update(&filtered, onlyMatching: true)
    }

    private mutating func rebuild(_ list: TaskList) {
        let ordering = ordering
        sorted = ordering.isIdentity
            ? nil
            : SectionOrders(
                priority: ordering.order(of: list.tasks(in: .priority)),
                bonus: ordering.order(of: list.tasks(in: .bonus)))
        if isFiltering { filterFromSorted(list) }
    }

    private mutating func filterFromSorted(_ list: TaskList) {
        let all = sorted ?? SectionOrders(
            priority: Array(0..<list.count(in: .priority)), bonus: Array(0..<list.count(in: .bonus)))
        folded.check(list)
        filtered = all.keeping(matching: query, folded: folded)
    }
}

/// Per section, the indices shown, in display order.
private struct SectionOrders: Equatable, Sendable {
    var priority: [Int]
    var bonus: [Int]

    subscript(section: Section) -> [Int] {
        get { section == .priority ? priority : bonus }
        set {
            if section == .priority { priority = newValue } else { bonus = newValue }
        }
    }

    /// The indices whose captions match `query`: one scan of these indices' folded captions.
    func keeping(matching query: String, folded: FoldedCaptions) -> SectionOrders {
        let matcher = TaskFilter.Matcher(query)
        return SectionOrders(
            priority: priority.filter { matcher.matches(folded: folded.priority[$0]) },
            bonus: bonus.filter { matcher.matches(folded: folded.bonus[$0]) })
    }
}

/// Folded captions per section, index for index with the list. Derived data: two views that
/// differ only here are equal.
struct FoldedCaptions: Equatable, Sendable {
    private(set) var priority: [String] = []
    private(set) var bonus: [String] = []

    init() {}

    init(_ list: TaskList) {
        priority = list.priority.map { TaskFilter.fold($0.caption) }
        bonus = list.bonus.map { TaskFilter.fold($0.caption) }
    }

    static func == (lhs: FoldedCaptions, rhs: FoldedCaptions) -> Bool { true }

    mutating func apply(_ change: ListEdit) {
        func edit(_ captions: inout [String]) {
            switch change {
            case .inserted(let task, let index) where index <= captions.count:
                captions.insert(TaskFilter.fold(task.caption), at: index)
            case .removed(_, let index) where index < captions.count:
                captions.remove(at: index)
            case .replaced(let old, let new, let index) where index < captions.count:
                if old.caption != new.caption { captions[index] = TaskFilter.fold(new.caption) }
            default:
                captions = []  // out of step: `check` folds again
            }
        }
        if change.section == .priority { edit(&priority) } else { edit(&bonus) }
    }

    /// Folds again when out of step with `list` (a list replaced without `apply`).
    mutating func check(_ list: TaskList) {
        if priority.count != list.count(in: .priority) || bonus.count != list.count(in: .bonus) {
            self = FoldedCaptions(list)
        }
    }
}
