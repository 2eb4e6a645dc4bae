import FoundationEssentials
import Glibc

/// Tasks whose calendar series HotTask cannot step (a phone's BYMONTHDAY, BYSETPOS, EXDATE…):
/// completing one here would complete every occurrence there, so a sync refuses to write it
/// (`SyncPlan`). `--done` and the app's Space refuse it first, changing nothing, rather than
/// leave a task done here and open there with every later sync failing.
extension TaskStore {
    /// Why completing each of `ids` (every synced task when nil) is refused, by id: the rule
    /// HotTask cannot step. Empty when the store was never synced or the tasks' series step.
    public func unsteppableSeries(_ ids: [UUID]? = nil) -> [UUID: String] {
        guard ids?.isEmpty != true else { return [:] }
        let pending = (try? pendingSync()) ?? []
        guard let file = try? SyncBase.readFile(besides: self) ?? pending.first.map({ SyncBase(collection: $0.collection) }) else {
            return [:]
        }
        var base = file
        for delta in pending { base.apply(delta) }
        var refused: [UUID: String] = [:]
        let keys = ids.map { $0.map { $0.uuidString.lowercased() } } ?? Array(base.entries.keys)
        for key in keys {
            // Most bodies repeat by no rule: those are not parsed.
            guard let id = UUID(uuidString: key), let entry = base.entries[key], entry.calendar.contains("RRULE"),
                let calendar = try? ICalendar.parse(entry.calendar).first(where: { $0.name == "VCALENDAR" }),
                let todo = SyncPlan.masterTodo(calendar), todo.first("STATUS")?.value.uppercased() != "COMPLETED",
                case .unsupported(let reason) = Recurrence.advance(todo)
            else { continue }
            refused[id] = reason
        }
        return refused
    }

    /// The one line `--done` and the app say for such a task (`here`: the command line, whose
    /// `--repeat` can give it a rule; the app says to complete it in the calendar app).
    public static func unsteppableMessage(caption: String, reason: String, here: Bool = true) -> String {
        "\(quotedCaption(CaptionRule.shown(caption))) repeats in your calendar by a rule HotTask cannot step (\(reason)); "
            + (here
                ? "complete it in your calendar app, or give it a rule here with --repeat. Nothing was changed" : "complete it in your calendar app")
    }
}
