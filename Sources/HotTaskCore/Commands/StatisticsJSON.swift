import FoundationEssentials
import Glibc

extension Statistics {
    /// `--stats --json`: `{"days": [{"date": "YYYY-MM-DD", "added": N, "completed": N}, …], …}`,
    /// local dates oldest first, then the numbers the text gives; a line break at the end.
    public var json: [UInt8] {
        var writer = JSONWriter(capacity: 64 * days.count + 512)
        writer.raw("{")
        writer.key("days", indent: 2, first: true)
        writer.raw("[")
        for (offset, day) in days.enumerated() {
            if offset > 0 { writer.raw(",") }
            writer.newline(indent: 4)
            writer.raw(#"{"date": ""#)
            writer.raw(day.date)
            writer.raw(#"", "added": \#(day.added), "completed": \#(day.completed)}"#)
        }
        if !days.isEmpty { writer.newline(indent: 2) }
        writer.raw("]")
        let numbers: [(StaticString, Int)] = [
            ("completedToday", completedToday), ("completedThisWeek", completedThisWeek), ("completedThisMonth", completedThisMonth),
            ("open", open), ("overdue", overdue),
        ]
        for (name, value) in numbers {
            writer.key(name, indent: 2, first: false)
            writer.raw(String(value))
        }
        writer.key("oldestOpen", indent: 2, first: false)
        if let task = oldestOpen {
            writer.raw(#"{"id": "#)
            writer.uuid(task.id)
            writer.raw(#", "caption": "#)
            writer.string(task.caption)
            writer.raw(#", "createdAt": "#)
            writer.date(task.createdAt)
            writer.raw("}")
        } else {
            writer.raw("null")
        }
        writer.newline(indent: 0)
        writer.raw("}\n")
        return writer.bytes
    }
}
