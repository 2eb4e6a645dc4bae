import FoundationEssentials
import Glibc

/// What an import file held that HotTask did not keep, so that the report can say so.
struct ImportLosses: Equatable, Sendable {
    /// By field name as the source calls it (project, tags, due…): how many tasks had it.
    var droppedFields: [String: Int] = [:]
    /// Taskwarrior tasks waiting to be shown later: HotTask has no wait, so they went to Bonus.
    var waitingToBonus = 0
    /// Skipped: Taskwarrior's deleted tasks, and recurrence templates (their instances come in).
    var deleted = 0
    /// The ids of those deleted tasks: that format no longer has them (`CarriedFields.forget`).
    var deletedIDs: [UUID] = []
    /// Recurrence templates skipped: their `recur` is not one HotTask steps exactly (by
    /// `recur`, for the report); the tasks they made come in one by one.
    var unrepeatable: [String: Int] = [:]
    var recurrenceTemplates: Int { unrepeatable.values.reduce(0, +) }
    /// Taskwarrior recurrences that came in as one repeating task each, and their occurrences
    /// (done, pending, due later) that are not tasks of their own here.
    var repeating = 0
    var occurrences = 0
    /// Occurrences whose template is not in the file: imported as plain tasks.
    var withoutTemplate = 0
    /// What the batch skips: deleted tasks, templates skipped, occurrences folded.
    var skipped: Int { deleted + recurrenceTemplates + occurrences }
    /// Templates and occurrences the decoders saw: `TaskwarriorRecurrence.fold` runs when any.
    var recurrencePieces = 0
    /// The format `droppedFields` were carried for (see `CarriedFields`): kept for the export
    /// back, not lost. nil: they were not kept.
    var carriedFor: String?

    init() {}

    /// Counts `other`'s losses in too (two parts of one file read apart).
    mutating func add(_ other: ImportLosses) {
        droppedFields.merge(other.droppedFields, uniquingKeysWith: +)
        waitingToBonus += other.waitingToBonus
        deleted += other.deleted
        deletedIDs += other.deletedIDs
        unrepeatable.merge(other.unrepeatable, uniquingKeysWith: +)
        repeating += other.repeating
        occurrences += other.occurrences
        withoutTemplate += other.withoutTemplate
        recurrencePieces += other.recurrencePieces
    }

    /// The sentences of the report, empty when nothing was lost.
    var sentences: [String] {
        var sentences: [String] = []
        if !droppedFields.isEmpty {
            let fields = droppedFields.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) (\(Self.tasks($0.value)))" }
            if let carriedFor {
                sentences.append(
                    "kept aside for an export back to \(carriedFor), as HotTask has no such field: \(fields.joined(separator: ", "))")
            } else {
                sentences.append("not kept, as HotTask has no such field: \(fields.joined(separator: ", "))")
            }
        }
        if waitingToBonus > 0 { sentences.append("\(Self.tasks(waitingToBonus)) waiting to be shown later went to Bonus") }
        if deleted > 0 { sentences.append("skipped \(deleted) deleted task\(deleted == 1 ? "" : "s")") }
        if repeating > 0 {
            sentences.append(
                "\(repeating) recurring task\(repeating == 1 ? "" : "s") became \(repeating == 1 ? "a repeating task" : "repeating tasks"), due at the next occurrence; \(occurrences == 1 ? "1 occurrence is not a task" : "\(occurrences) occurrences are not tasks") of \(occurrences == 1 ? "its" : "their") own"
            )
        } else if occurrences > 0 {
            sentences.append(
                "\(occurrences == 1 ? "1 occurrence of a finished recurrence is not a task" : "\(occurrences) occurrences of finished recurrences are not tasks") of \(occurrences == 1 ? "its" : "their") own"
            )
        }
        if recurrenceTemplates > 0 {
            let kinds = unrepeatable.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "recur:\($0.key)" }.joined(separator: ", ")
            sentences.append(
                "skipped \(recurrenceTemplates) recurrence template\(recurrenceTemplates == 1 ? "" : "s") HotTask cannot repeat exactly (\(kinds)); the tasks \(recurrenceTemplates == 1 ? "it" : "they") made are imported one by one"
            )
        }
        if withoutTemplate > 0 {
            sentences.append(
                "\(Self.tasks(withoutTemplate)) of a recurrence whose template is not in the file \(withoutTemplate == 1 ? "is" : "are") imported one by one"
            )
        }
        return sentences
    }

    private static func tasks(_ count: Int) -> String {
        "\(count) task\(count == 1 ? "" : "s")"
    }
}
