import FoundationEssentials
import Glibc

/// A save's condition, as HTTP's `If-Match`: the task still holds the value of a field that
/// the person started from (the note an editor was opened on). It travels with the save and is
/// checked inside the save's transaction, under the lock, against the store as it is then: a
/// save whose condition fails writes nothing, and says why.
public struct SaveCondition: Equatable, Sendable {
    public let taskID: UUID
    let field: TaskField
    /// The value when the person started.
    let expected: FieldValue
    /// The value the save writes: found there already (another writer made the same change),
    /// the condition holds.
    let written: FieldValue

    /// The note of `taskID` is still `base` (the text the editor was opened on), or `text`.
    public static func note(of taskID: UUID, was base: String, becomes text: String) -> SaveCondition {
        SaveCondition(taskID: taskID, field: .note, expected: .note(base), written: .note(text))
    }

    /// The note the save writes, when it is a note's condition (kept for the person if refused).
    public var noteWritten: String? {
        if case .note(let text) = written { return text }
        return nil
    }

    /// Why the condition fails on `task`, the store's task now (nil: there is none); nil when it holds.
    func failure(on task: TaskItem?) -> String? {
        guard let task else { return "its task was deleted elsewhere meanwhile" }
        let now = field.value(of: task)
        return now == expected || now == written ? nil : "the \(field.key) was changed elsewhere meanwhile"
    }
}

extension TaskStore {
    /// The task with `id` as the store holds it now, found by id alone when the files allow it
    /// (else the whole store is read); nil when there is none. The caller holds the lock.
    func taskNow(withID id: UUID) throws(StoreError) -> TaskItem? {
        let handle = id.uuidString.lowercased()
        if let view = try logView() {
            do {
                if let found = try pointLookup([handle], view: view) { return found.tasks[handle] }
            } catch is PointLookupRefusal {
                return nil
            } catch {
                // Read whole below.
            }
        }
        let list = try read().list
        return list.position(of: id).map { list[$0] }
    }
}
