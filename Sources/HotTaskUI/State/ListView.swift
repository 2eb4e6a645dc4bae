import FoundationEssentials
import Glibc
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
    private(set) var sort = SortMode.manual
    private(set) var completedLast = false
    /// The filter text; empty when not filtering.
    private(set) var query = ""
    /// The query folded, with the day it was typed on (for `due:`): derived from `query`.
    private var matcher = QueryMatcher()
    /// The one list shown, as its tasks store it (`ListNames.stored`); nil for every list.
    private(set) var onlyList: String?
    /// Folded tasks, what their folds hide, and each parent's subtask counts.
    private(set) var folds = SubtaskFolds()
    /// While a filter is on, the ancestors of the subtasks it found, shown dim above them for
    /// context: not matches themselves (`addContext`).
    private(set) var context = FilterContext()
    /// An edit touched a folded family: `editsApplied` finds what the folds hide again.
    private var refoldPending = false
    /// A filter, one list or a fold that hides subtasks: the view keeps the indices it shows.
    private var narrows: Bool { !query.isEmpty || onlyList != nil || !folds.hidden.isEmpty }
    /// Folds hide subtasks unless a filter is on: what it finds is shown, folded or not.
    private var hidesFolded: Bool { query.isEmpty && !folds.hidden.isEmpty }

    /// Sorted indices per section (before filtering); nil for the identity.
    private var sorted: SectionOrders?
    /// Indices shown per section (sorted, then filtered); nil when not filtering.
    private var filtered: SectionOrders?
    /// Each task's caption folded for the filter, per section and index: made once, kept up
    /// to date by `apply`, so that a filter keystroke only searches bytes.
    private var folded = FoldedCaptions()
    /// The results of the last few queries, so that Backspace goes back to one without a
    /// scan. Dropped by any change to the list or the order.
    private var earlier = EarlierResults()

    init() {}

    var isFiltering: Bool { !query.isEmpty }
    /// True when display order is stored order: reordering by hand makes sense.
    var isManualOrder: Bool { sort == .manual && !completedLast }
    /// The zone due dates sort in: the state's, the same the CLI's `--by-due` uses.
    private(set) var local = ZoneInfo(secondsFromGMT: 0)!
    private var ordering: TaskOrdering { TaskOrdering(sort: sort, completedLast: completedLast, local: local) }
    private var shown: SectionOrders? { filtered ?? sorted }

    // MARK: Mapping

    /// How many tasks of `section` are shown.
    func count(in section: Section, of list: TaskList) -> Int {
        shown?[section].count ?? list.count(in: section)
    }

    func count(of list: TaskList) -> Int {
        count(in: .priority, of: list) + count(in: .bonus, of: list)
    }

    /// The section and index within it of the task at a display position. O(1).
    func place(ofDisplay display: Int, in list: TaskList) -> (section: Section, index: Int) {
        let priorityCount = count(in: .priority, of: list)
        if display < priorityCount {
            return (.priority, shown?.priority[display] ?? display)
        }
        let offset = display - priorityCount
        return (.bonus, shown?.bonus[offset] ?? offset)
    }

    /// The task position shown at a display position. O(1).
    func position(ofDisplay display: Int, in list: TaskList) -> Int {
        let place = place(ofDisplay: display, in: list)
        return list.position(of: place.index, in: place.section)
    }

    /// The display position of the task at `index` of `section`, or nil when it is filtered
    /// out. O(1) for the identity; otherwise a search (used after changes, not per key).
    func display(ofIndex index: Int, in section: Section, of list: TaskList) -> Int? {
        let before = section == .priority ? 0 : count(in: .priority, of: list)
        guard let order = shown?[section] else { return before + index }
        return order.firstIndex(of: index).map { before + $0 }
    }

    // MARK: Changing the view

    /// Forgets the folded captions (at start, and when the list was read again in full): they
    /// are folded again by `foldCaptions`, or by the first filter keystroke, not here, so that
    /// the first frame never waits for 100,000 captions to be folded.
    mutating func prepareFilter() {
        folded = FoldedCaptions()
        earlier = EarlierResults()
    }

    /// Folds every caption of `list` for the filter unless they are folded already: the app
    /// calls it right after drawing its first frame, so the first filter keystroke does not
    /// pay for it either.
    public mutating func foldCaptions(_ list: TaskList) {
        folded.check(list)
    }

    /// Makes the view again for `list` changed in one pass (no row edits): the captions are
    /// folded again, the order and the filter made once.
    mutating func listChanged(_ list: TaskList) {
        // Folded again only when this view needs them now (A–Z, a filter); otherwise after the
        // frame (`foldCaptions` on `Event.frameShown`), so that the key's frame does not wait.
        folded = FoldedCaptions()
        folds.listChanged(list)
        rebuild(list)
    }

    /// Counts each parent's subtasks (at start; `listChanged` does it after).
    mutating func countSubtasks(_ list: TaskList) {
        folds.listChanged(list)
    }

    /// Folds these tasks and no others: their subtasks are hidden (unless a filter is on).
    mutating func setFolds(_ folded: Set<UUID>, list: TaskList) {
        folds.set(folded, list: list)
        earlier = EarlierResults()
        if narrows { filterFromSorted(list) } else { filtered = nil }
    }

    /// Follows rows removed in one pass (clearing the completed tasks): the folded captions and
    /// the orders shown lose them and the indices after them close up. O(n), no sort.
    mutating func rowsRemoved(_ removed: RemovedRows, list: TaskList) {
        earlier = EarlierResults()
        for section in Section.allCases where !removed[section].isEmpty {
            let gone = removed[section]
            let before = list.count(in: section) + gone.count
            // Each old index's new one, or -1 when it is gone.
            var newIndex = [Int32](repeating: 0, count: before)
            var next = 0
            var shift: Int32 = 0
            for index in 0..<before {
                if next < gone.count && gone[next] == index {
                    newIndex[index] = -1
                    shift += 1
                    next += 1
                } else {
                    newIndex[index] = Int32(index) - shift
                }
            }
            func closeUp(_ order: [Int]) -> [Int] {
                order.compactMap { newIndex[$0] >= 0 ? Int(newIndex[$0]) : nil }
            }
            if let order = sorted?[section] { sorted?[section] = closeUp(order) }
            if let order = filtered?[section] { filtered?[section] = closeUp(order) }
            folded.remove(gone, in: section, countBefore: before)
        }
        let hiddenBefore = folds.hidden
        folds.listChanged(list)
        // A fold's parent gone (its subtasks shown again), or a filter's context to find again.
        if folds.hidden != hiddenBefore || !context.isEmpty {
            if narrows { filterFromSorted(list) } else { filtered = nil }
        }
    }

    /// Sets sort mode and "completed last", sorting once.
    mutating func setOrder(_ sort: SortMode, completedLast: Bool, local: ZoneInfo, list: TaskList) {
        self.sort = sort
        self.completedLast = completedLast
        self.local = local
        rebuild(list)
    }

    /// Sets the filter text: narrows the current result when the text only grew, otherwise
    /// scans the (sorted) list once.
    mutating func setQuery(_ query: String, list: TaskList, dates: DueDisplay) {
        let previous = self.query
        self.query = query
        matcher = QueryMatcher(TaskFilter.Matcher(TaskFilter.Query(query), dates: dates, lists: list.lists, onlyStored: onlyList))
        if folded.check(list) {
            earlier = EarlierResults()  // the list was replaced: the current result is stale too
        } else if let current = filtered, !previous.isEmpty {
            earlier.remember(previous, current, context: context)
        }
        context = FilterContext()
        if !narrows {
            filtered = nil
        } else if let known = earlier.result(for: query) {
            (filtered, context) = (known.shown, known.context)
        } else if TaskFilter.narrows(query, from: previous), !previous.isEmpty || folds.hidden.isEmpty, let current = filtered {
            filtered = current.keeping(matcher.value, folded: folded, list: list)
            addContext(list)
        } else {
            filterFromSorted(list)
        }
    }

    /// Adds to what the filter found the ancestors of its subtasks, in the order shown: a pass
    /// to mark what is shown, then one for each level of parents to find them (by id, with no
    /// index of the whole list). Nothing when the list has no subtasks or no filter is on.
    private mutating func addContext(_ list: TaskList) {
        context = FilterContext()
        guard !query.isEmpty, folds.hasSubtasks, let found = filtered else { return }
        var shown = (priority: [Bool](repeating: false, count: list.priority.count), bonus: [Bool](repeating: false, count: list.bonus.count))
        var wanted: Set<UUID> = []
        // Siblings lie together: their parent is wanted once, not once each.
        var last: UUID?
        for index in found.priority {
            shown.priority[index] = true
            if let up = list.priority[index].parent, up != last {
                wanted.insert(up)
                last = up
            }
        }
        for index in found.bonus {
            shown.bonus[index] = true
            if let up = list.bonus[index].parent, up != last {
                wanted.insert(up)
                last = up
            }
        }
        func show(_ section: Section, _ index: Int, _ next: inout Set<UUID>) {
            let task = list.tasks(in: section)[index]
            if section == .priority { shown.priority[index] = true } else { shown.bonus[index] = true }
            context.add(task.id, in: section)
            if let up = task.parent { next.insert(up) }
        }
        while !wanted.isEmpty {
            var next: Set<UUID> = []
            // A few parents by the list's id index (a hash and a search each); many, by one
            // pass over the list (a hash each task), which costs less then.
            if list.isIndexedByID, wanted.count * 32 < list.count {
                for id in wanted {
                    guard let position = list.position(of: id) else { continue }
                    let section = list.section(ofPosition: position)
                    let index = list.index(ofPosition: position)
                    if !(section == .priority ? shown.priority[index] : shown.bonus[index]) { show(section, index, &next) }
                }
            } else {
                for index in list.priority.indices where !shown.priority[index] && wanted.contains(list.priority[index].id) {
                    show(.priority, index, &next)
                }
                for index in list.bonus.indices where !shown.bonus[index] && wanted.contains(list.bonus[index].id) { show(.bonus, index, &next) }
            }
            wanted = next
        }
        guard !context.isEmpty else { return }
        let order = sorted ?? SectionOrders(priority: Array(list.priority.indices), bonus: Array(list.bonus.indices))
        filtered = SectionOrders(priority: order.priority.filter { shown.priority[$0] }, bonus: order.bonus.filter { shown.bonus[$0] })
    }

    /// Shows only the list whose tasks store `stored` (nil: every list): one scan.
    mutating func setList(_ stored: String?, list: TaskList, dates: DueDisplay) {
        onlyList = stored
        earlier = EarlierResults()
        matcher = QueryMatcher(TaskFilter.Matcher(TaskFilter.Query(query), dates: dates, lists: list.lists, onlyStored: stored))
        if narrows { filterFromSorted(list) } else { filtered = nil }
    }

    /// Brings the view up to date after `change` was applied to `list` (which is the list
    /// after the change). O(n) at worst for index shifting; no sorting, no scan of captions.
    mutating func apply(_ change: ListEdit, list: TaskList) {
        folded.apply(change)
        earlier = EarlierResults()
        // A filter's context rows (ancestors, dim) are found again, after the edits, for a list
        // with subtasks.
        if folds.apply(change) || (!query.isEmpty && (folds.hasSubtasks || !context.isEmpty)) { refoldPending = true }
        guard sorted != nil || filtered != nil else { return }
        let section = change.section
        let tasks = list.tasks(in: section)
        let ordering = ordering
        let matcher = filtered == nil ? nil : self.matcher.value
        let hidden = hidesFolded ? folds.hidden : []
        func update(_ orders: inout SectionOrders?, onlyMatching: Bool) {
            guard var order = orders?[section] else { return }
            switch change {
            case .inserted(let task, let index):
                order = order.map { $0 >= index ? $0 + 1 : $0 }
                if !onlyMatching || (matcher?.matches(task) == true && !hidden.contains(task.id)) {
                    order.insert(index, at: ordering.insertionPoint(of: index, in: order, tasks: tasks, folded: folded[section]))
                }
            case .removed(_, let index):
                order.removeAll { $0 == index }
                order = order.map { $0 > index ? $0 - 1 : $0 }
            case .replaced(_, let new, let index):
                order.removeAll { $0 == index }
                if !onlyMatching || (matcher?.matches(new) == true && !hidden.contains(new.id)) {
                    order.insert(index, at: ordering.insertionPoint(of: index, in: order, tasks: tasks, folded: folded[section]))
                }
            }
            orders?[section] = order
        }
        update(&sorted, onlyMatching: false)
        // A fold's subtasks are hidden or shown by `editsApplied`, which filters again.
        if !refoldPending { update(&filtered, onlyMatching: true) }
    }

    /// After the row edits of changes (`apply`): what the folds hide, found again when an
    /// edit touched a folded family, and the view filtered again for it. Nothing otherwise.
    mutating func editsApplied(_ list: TaskList) {
        guard refoldPending else { return }
        refoldPending = false
        folds.findHidden(list)
        if narrows { filterFromSorted(list) } else { filtered = nil }
    }

    private mutating func rebuild(_ list: TaskList) {
        earlier = EarlierResults()
        let ordering = ordering
        // A–Z compares the folded captions: made now if the app has not made them yet.
        if ordering.sort == .alphabetical { folded.check(list) }
        sorted =
            ordering.isIdentity
            ? nil
            : SectionOrders(
                priority: ordering.order(of: list.tasks(in: .priority), folded: folded.priority),
                bonus: ordering.order(of: list.tasks(in: .bonus), folded: folded.bonus))
        // A reload can leave the folds hiding nothing: then no narrowed indices of the old list.
        if narrows { filterFromSorted(list) } else { filtered = nil }
    }

    private mutating func filterFromSorted(_ list: TaskList) {
        if query.isEmpty, onlyList == nil {
            // Only folds narrow: no caption is looked at (nor folded first, at start).
            let every = SectionOrders(priority: Array(list.priority.indices), bonus: Array(list.bonus.indices))
            filtered = (sorted ?? every).removing(folds.hidden, list: list)
            return
        }
        folded.check(list)
        if let sorted {
            filtered = sorted.keeping(matcher.value, folded: folded, list: list)
        } else {
            // Manual order: the captions in the order they lie, no array of every index.
            let matcher = matcher.value
            filtered = SectionOrders(
                priority: folded.priority.keepingAll(matcher, tasks: list.priority), bonus: folded.bonus.keepingAll(matcher, tasks: list.bonus))
        }
        if hidesFolded { filtered = filtered?.removing(folds.hidden, list: list) }
        addContext(list)
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

    /// The indices whose tasks match: one scan of these indices' folded captions (and of
    /// their tasks' tags and due dates, when the query asks).
    func keeping(_ matcher: TaskFilter.Matcher, folded: FoldedCaptions, list: TaskList) -> SectionOrders {
        SectionOrders(
            priority: folded.priority.keeping(priority, matcher, tasks: list.priority),
            bonus: folded.bonus.keeping(bonus, matcher, tasks: list.bonus))
    }

    /// These indices but those of the `hidden` tasks (the subtasks folds hide).
    func removing(_ hidden: IDSet, list: TaskList) -> SectionOrders {
        func keep(_ order: [Int], _ tasks: [TaskItem]) -> [Int] {
            order.filter { tasks[$0].parent == nil || !hidden.contains(tasks[$0].id) }
        }
        return SectionOrders(priority: keep(priority, list.priority), bonus: keep(bonus, list.bonus))
    }
}

/// The results of the last few queries, so that Backspace (or typing a query again) shows
/// them without a scan. A result depends only on the list, the order and the query, so the
/// owner drops them all on any change to the list or the order. Derived data: two views that
/// differ only here are equal.
private struct EarlierResults: Equatable, Sendable {
    private var results: [(query: String, shown: SectionOrders, context: FilterContext)] = []
    /// Bounds on what is kept: queries, and indices in all (8 bytes each).
    private static let maximumResults = 16
    private static let maximumIndices = 400_000

    static func == (lhs: EarlierResults, rhs: EarlierResults) -> Bool { true }

    mutating func remember(_ query: String, _ shown: SectionOrders, context: FilterContext) {
        results.removeAll { $0.query == query }
        results.append((query, shown, context))
        var indices = results.reduce(0) { $0 + $1.shown.priority.count + $1.shown.bonus.count }
        while results.count > Self.maximumResults || (indices > Self.maximumIndices && results.count > 1) {
            indices -= results[0].shown.priority.count + results[0].shown.bonus.count
            results.removeFirst()
        }
    }

    func result(for query: String) -> (shown: SectionOrders, context: FilterContext)? {
        results.last { $0.query == query }.map { ($0.shown, $0.context) }
    }
}

/// The filter's matcher, derived from the query (and the day it was typed on): two views that
/// differ only here are equal.
private struct QueryMatcher: Equatable, Sendable {
    /// No query: it matches every task and never reads a date, so any day and zone will do.
    var value = TaskFilter.Matcher(
        "", dates: DueDisplay(now: Date(timeIntervalSince1970: 0), local: ZoneInfo(secondsFromGMT: 0)!), lists: .initial)

    init() {}

    init(_ value: TaskFilter.Matcher) {
        self.value = value
    }

    static func == (lhs: QueryMatcher, rhs: QueryMatcher) -> Bool { true }
}

/// The rows a filter shows for context only (the ancestors of the subtasks it found), and how
/// many in each section: the header counts the matches alone.
struct FilterContext: Equatable, Sendable {
    private(set) var ids: Set<UUID> = []
    private var counts = (priority: 0, bonus: 0)

    static func == (lhs: FilterContext, rhs: FilterContext) -> Bool { lhs.ids == rhs.ids }

    var isEmpty: Bool { ids.isEmpty }

    func contains(_ id: UUID) -> Bool { ids.contains(id) }

    /// How many context rows `section` shows.
    subscript(section: Section) -> Int { section == .priority ? counts.priority : counts.bonus }

    mutating func add(_ id: UUID, in section: Section) {
        guard ids.insert(id).inserted else { return }
        if section == .priority { counts.priority += 1 } else { counts.bonus += 1 }
    }
}
