import FoundationEssentials
import Glibc

/// The lists a store knows, in the order they are shown; the first is the default list, where
/// new tasks go unless told otherwise. A task keeps the name of its list (`TaskField.list`),
/// or nothing for the default list, so that renaming the default list changes no task and an
/// older store's tasks are all in it.
///
/// A list exists while it is named here or a task is in it: a task that arrives in a list this
/// store never made (another writer's, an import's) shows in that list, never nowhere.
public struct ListNames: Equatable, Hashable, Sendable {
    /// The names, the default list's first; never empty, no two the same.
    public private(set) var names: [String]

    /// What a store that never named its lists has: one list, "Tasks".
    public static let initial = ListNames(checked: ["Tasks"])

    init(checked names: [String]) {
        precondition(!names.isEmpty)
        self.names = names
    }

    /// Names read from a store; nil when they are not a list of lists (none, a repeat, a name
    /// `ListNameRule` refuses).
    init?(stored names: [String]) {
        guard !names.isEmpty, Set(names).count == names.count, names.allSatisfy({ ListNameRule.check($0) == nil }) else {
            return nil
        }
        self.names = names
    }

    public var defaultName: String { names[0] }

    /// The name shown for a task's stored list.
    public func name(of stored: String) -> String { stored.isEmpty ? names[0] : stored }

    /// What a task in list `name` stores: nothing for the default list.
    public func stored(for name: String) -> String { name == names[0] ? "" : name }

    /// Adds a list at the end.
    mutating func add(_ name: String) {
        if !names.contains(name) { names.append(name) }
    }

    /// Renames a list in its place (a list not named here yet is added).
    mutating func rename(_ old: String, to new: String) {
        if let index = names.firstIndex(of: old) { names[index] = new } else { add(new) }
    }

    /// Forgets a list other than the default.
    mutating func remove(_ name: String) {
        if name != names[0] { names.removeAll { $0 == name } }
    }
}

/// What may name a list: a word or a few, as a person types them (trimmed), short enough for
/// the list bar, without control characters.
public enum ListNameRule {
    public static let maximumLength = 60

    /// Why `name` cannot name a list, or nil when it can.
    public static func check(_ name: String) -> String? {
        // Most names are printable ASCII: taken from their bytes (every store read checks each
        // task's list, and the checks below took a tenth of a quiet sync of 2,000 tasks).
        isPlainlyGood(name) ? nil : checkedInFull(name)
    }

    /// `check` by each rule in turn.
    static func checkedInFull(_ name: String) -> String? {
        if name.isEmpty || name.allSatisfy(\.isWhitespace) { return "a list's name cannot be empty" }
        if name != name.trimmingBlanksAndNewlines() { return "a list's name cannot start or end with a space" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            return "a list's name cannot hold control characters"
        }
        if name.count > maximumLength { return "a list's name can be at most \(maximumLength) characters" }
        return nil
    }

    /// Printable ASCII, neither end a space, within the length: good by every check above.
    private static func isPlainlyGood(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20, bytes.count <= maximumLength else {
                return false
            }
            return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        }
    }

    /// A name another program gave (a calendar's display name, a path segment) made one a list
    /// can have: control and format characters dropped, runs of spaces one space, trimmed, cut
    /// to the longest allowed; nil when nothing is left. A name the rule refuses would have its
    /// tasks' records refused by the store, and the tasks lost.
    public static func fromOutside(_ name: String) -> String? {
        var kept = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if scalar.properties.isWhitespace {
                kept.append(" ")  // a tab or a line break parts words
            } else if scalar.properties.generalCategory != .control && scalar.properties.generalCategory != .format {
                kept.append(scalar)
            }
        }
        let words = String(kept).split(whereSeparator: \.isWhitespace)
        let joined = String(words.joined(separator: " ").prefix(maximumLength)).trimmingBlanks()
        return joined.isEmpty ? nil : joined
    }

    /// The list `typed` names among `known`: the same name, else the one name equal to it
    /// ignoring case; nil when none is (a typo never makes or picks a list).
    public static func find(_ typed: String, in known: [String]) -> String? {
        let name = typed.trimmingBlanksAndNewlines()
        if known.contains(name) { return name }
        let folded = known.filter { $0.equalsIgnoringCase(name) }
        return folded.count == 1 ? folded[0] : nil
    }
}

/// What a record did to the store's lists: the names after it and before (undo puts these back).
struct ListNamesChange: Equatable, Sendable {
    var after: ListNames
    var before: ListNames

    var inverse: ListNamesChange { ListNamesChange(after: before, before: after) }
}

extension TaskList {
    /// Takes the lists the last of `records` that changed them left (a replay of the log).
    public mutating func follow(listsOf records: some BidirectionalCollection<LogRecord>) {
        if let change = records.last(where: { $0.lists != nil })?.lists { lists = change.after }
    }

    /// The lists a person can see: those the store names, then any a task is in.
    public var allListNames: [String] {
        let known = Set(lists.names)
        return lists.names + listCounts.keys.filter { !known.contains($0) }.sorted()
    }

    /// The display name of `task`'s list.
    public func listName(of task: TaskItem) -> String { lists.name(of: task.list) }
}

extension TaskList {
    /// True when the store names more than one list, or a task is in a list other than the default.
    public var hasSeveralLists: Bool {
        lists.names.count > 1 || !listCounts.isEmpty
    }
}

extension TaskList {
    /// The tasks of list `name` only, in their order, with the store's lists.
    public func onlyList(_ name: String) -> TaskList {
        var only = TaskList(keyed: [priority, bonus].joined().filter { lists.name(of: $0.list) == name })
        only.lists = lists
        return only
    }
}

extension TaskList {
    /// Takes `other`'s lists (a list made of some of its tasks).
    public mutating func keepLists(of other: TaskList) { lists = other.lists }
}

/// How many tasks a list holds, and how many of them are done.
public struct ListCount: Equatable, Hashable, Sendable {
    public var total = 0
    public var completed = 0
}

extension TaskList {
    /// Counts `task` in (1) or out (-1) of its list's counts; the default list's are the rest.
    mutating func countList(_ task: TaskItem, _ sign: Int) {
        let name = task.list
        guard !name.isEmpty else { return }
        var count = listCounts[name] ?? ListCount()
        count.total += sign
        if task.completed { count.completed += sign }
        listCounts[name] = count.total == 0 ? nil : count
    }

    /// Every list's counts again from the tasks (after a change made in bulk).
    mutating func recountLists() {
        listCounts = [:]
        for section in [priority, bonus] {
            for index in section.indices where !section[index].list.isEmpty { countList(section[index], 1) }
        }
    }

    /// The tasks of the list called `name` (the default list's are those that store nothing,
    /// and any that store its name): look-ups, whatever the length of the list.
    public func count(ofListNamed name: String) -> ListCount {
        guard name == lists.defaultName else { return count(ofList: name) }
        var count = count(ofList: "")
        if let named = listCounts[name] {
            count.total += named.total
            count.completed += named.completed
        }
        return count
    }

    /// The tasks of the list whose tasks store `stored`: a look-up, whatever the length of the list.
    public func count(ofList stored: String) -> ListCount {
        if !stored.isEmpty { return listCounts[stored] ?? ListCount() }
        var rest = ListCount(total: count, completed: completedCount)
        for named in listCounts.values {
            rest.total -= named.total
            rest.completed -= named.completed
        }
        return rest
    }
}
