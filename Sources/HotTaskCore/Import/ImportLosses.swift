import Foundation

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
    var recurrenceTemplates = 0
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
        recurrenceTemplates += other.recurrenceTemplates
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
        if recurrenceTemplates > 0 {
            sentences.append(
                "skipped \(recurrenceTemplates) recurrence template\(recurrenceTemplates == 1 ? "" : "s") (the tasks it made are imported)")
        }
        return sentences
    }

    private static func tasks(_ count: Int) -> String {
        "\(count) task\(count == 1 ? "" : "s")"
    }
}
