import FoundationEssentials
import Glibc

/// What becomes of a deleted list's tasks (`--delete-list NAME` with `--move-to OTHER` or
/// `--with-tasks`); without either a list that holds tasks is not deleted.
public enum DeletedListTasks: Sendable, Equatable {
    case refuse
    case moveTo(String)
    case delete
}

/// `--new-list`, `--rename-list` and `--delete-list`: each one record in the change log (the
/// lists it leaves, and any task it moves or deletes), so one `--undo` takes it back whole.
extension TaskStore {
    /// Makes an empty list at the end of the lists.
    public func newList(_ typed: String) throws -> [String] {
        let name = try Self.checkedListName(typed, flag: "--new-list")
        return try transaction(.everything) { txn in
            let list = try txn.whole().list
            if let existing = ListNameRule.find(name, in: list.allListNames) {
                throw UserFacingError(.refused, "--new-list: there is a list named \(quotedCaption(existing)) already; nothing was changed")
            }
            var after = list.lists
            after.add(name)
            let what = "Made the list \(quotedCaption(name))"
            try txn.commit([], what: what, lists: ListNamesChange(after: after, before: list.lists))
            return [what]
        }
    }

    /// Renames a list; its tasks follow it (a task keeps its list by name).
    public func renameList(_ typedOld: String, to typedNew: String) throws -> [String] {
        let new = try Self.checkedListName(typedNew, flag: "--rename-list")
        return try transaction(.everything) { txn in
            let list = try txn.whole().list
            let old = try Self.existingList(typedOld, in: list, flag: "--rename-list")
            if let clash = ListNameRule.find(new, in: list.allListNames), clash != old || clash == new {
                throw UserFacingError(.refused, "--rename-list: there is a list named \(quotedCaption(clash)) already; nothing was changed")
            }
            var after = list.lists
            after.rename(old, to: new)
            let stored = after.stored(for: new)
            let changes = list.all.compactMap { task -> TaskChange? in
                guard list.listName(of: task) == old, task.list != stored else { return nil }
                return ChangeRules.moveToList(task, stored)
            }
            let what = "Renamed the list \(quotedCaption(old)) to \(quotedCaption(new))"
            try txn.commit(changes, what: what, lists: ListNamesChange(after: after, before: list.lists))
            return [what]
        }
    }

    /// Deletes a list other than the default; a list with tasks only when told what becomes of them.
    public func deleteList(_ typed: String, tasks disposal: DeletedListTasks) throws -> [String] {
        try transaction(.everything) { txn in
            let list = try txn.whole().list
            let name = try Self.existingList(typed, in: list, flag: "--delete-list")
            if name == list.lists.defaultName {
                throw UserFacingError(
                    .refused,
                    "--delete-list: \(quotedCaption(name)) is the default list, where new tasks go, and cannot be deleted; rename it with --rename-list. Nothing was changed"
                )
            }
            let inside = list.all.filter { list.listName(of: $0) == name }
            var changes: [TaskChange] = []
            var moved = ""
            switch disposal {
            case .refuse where !inside.isEmpty:
                throw UserFacingError(
                    .refused,
                    "--delete-list: \(quotedCaption(name)) holds \(inside.count) task\(inside.count == 1 ? "" : "s"); add --move-to LIST to keep them in another list, or --with-tasks to delete them too. Nothing was changed"
                )
            case .refuse: break
            case .moveTo(let typedTarget):
                let target = try Self.existingList(typedTarget, in: list, flag: "--move-to")
                guard target != name else {
                    throw UserFacingError(.refused, "--move-to: the tasks cannot move to the list being deleted; nothing was changed")
                }
                let stored = list.lists.stored(for: target)
                changes = inside.compactMap { ChangeRules.moveToList($0, stored) }
                moved = inside.isEmpty ? "" : "; moved \(inside.count) task\(inside.count == 1 ? "" : "s") to \(quotedCaption(target))"
            case .delete:
                changes = inside.map(ChangeRules.delete)
                moved = inside.isEmpty ? "" : "; deleted its \(inside.count) task\(inside.count == 1 ? "" : "s")"
            }
            var after = list.lists
            after.remove(name)
            let what = "Deleted the list \(quotedCaption(name))\(moved)"
            try txn.commit(changes, what: what, lists: ListNamesChange(after: after, before: list.lists))
            return [what]
        }
    }

    /// `--lists`: each list with its open and done counts, the default first.
    public func listSummaries() throws -> (lists: [(name: String, open: Int, done: Int)], defaultName: String) {
        let list = try read().list
        let all = list.allListNames.map { name in
            let count = list.count(ofListNamed: name)
            return (name: name, open: count.total - count.completed, done: count.completed)
        }
        return (all, list.lists.defaultName)
    }

    /// `--lists --json`: an array of `{"name", "open", "done", "default"}`, one line each.
    public func listSummariesJSON() throws -> [UInt8] {
        let (lists, defaultName) = try listSummaries()
        var writer = JSONWriter(capacity: 64 * (lists.count + 1))
        writer.raw("[")
        for (offset, list) in lists.enumerated() {
            writer.raw(offset == 0 ? "{\"name\": " : ",\n {\"name\": ")
            writer.string(list.name)
            writer.raw(", \"open\": \(list.open), \"done\": \(list.done), \"default\": \(list.name == defaultName)}")
        }
        writer.raw("]\n")
        return writer.bytes
    }

    static func checkedListName(_ typed: String, flag: String) throws -> String {
        let name = typed.trimmingBlanksAndNewlines()
        if let problem = ListNameRule.check(name) { throw UserFacingError(.refused, "\(flag): \(problem); nothing was changed") }
        return name
    }

    /// The list `typed` names, or a refusal naming the lists there are: a typo never makes one.
    public static func existingList(_ typed: String, in list: TaskList, flag: String) throws -> String {
        let all = list.allListNames
        if let name = ListNameRule.find(typed, in: all) { return name }
        throw UserFacingError(.refused, unknownListMessage(typed, known: all, flag: flag))
    }

    static func unknownListMessage(_ typed: String, known: [String], flag: String) -> String {
        let names = known.map { quotedCaption($0) }.joined(separator: ", ")
        return
            "\(flag): there is no list named \(quotedCaption(typed)); the lists are \(names). Make it with --new-list \(CommandLineQuoting.quoted(typed)). Nothing was changed"
    }
}

/// A word as a shell would need it in a suggested command.
enum CommandLineQuoting {
    static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { $0.isAlphanumeric || "-_.@+".unicodeScalars.contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}

extension StoreTransaction {
    /// The list `typed` names (`--in`) and what a task in it stores: from the header and the log
    /// when they name it, else from the whole store (a list only its tasks name). A name no list
    /// has is refused, never made.
    func list(named typed: String, flag: String) throws -> (name: String, stored: String) {
        if let view = followedLog ?? (try? log()).flatMap({ $0 }), let name = ListNameRule.find(typed, in: view.lists.names) {
            return (name, view.lists.stored(for: name))
        }
        let list = try whole().list
        let name = try TaskStore.existingList(typed, in: list, flag: flag)
        return (name, list.lists.stored(for: name))
    }
}
