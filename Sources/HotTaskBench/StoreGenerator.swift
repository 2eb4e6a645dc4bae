import Foundation
import HotTaskCore
import Seeded

/// Deterministic stores like a heavy user's: captions of 10–80 characters, about a quarter with
/// accents, CJK or emoji, 30% completed, 60% in Top Priority, spread over a year; 40% have a
/// due date within two months either side of 2026-11-25 (a quarter of those a time of day in
/// Berlin or New York), from a generator of their own, so that the rest is as it always was.
enum StoreGenerator {
    private static let words = [
        "call", "buy", "read", "write", "fix", "plan", "review", "email", "book", "pay", "clean", "ship",
        "draft", "report", "invoice", "dentist", "groceries", "garden", "bike", "taxes", "slides", "meeting",
    ]
    private static let flavours = ["café", "naïve", "Müller", "日本語", "買い物", "🥛", "📚", "✅", "🚀", "résumé"]

    static func list(count: Int, seed: UInt64 = 2026) -> TaskList {
        var generator = SeededGenerator(seed: seed)
        let start = Date(timeIntervalSince1970: 1_763_000_000)
        var dueGenerator = SeededGenerator(seed: seed &+ 29)
        let dueCentre = 20_782  // 2026-11-25, in days since 1970
        var tasks: [TaskItem] = []
        tasks.reserveCapacity(count)
        for _ in 0..<count {
            var caption = ""
            let length = Int.random(in: 10...80, using: &generator)
            while caption.count < length {
                caption += (caption.isEmpty ? "" : " ") + words.randomElement(using: &generator)!
            }
            caption = String(caption.prefix(length)).trimmingCharacters(in: .whitespaces)
            if Double.random(in: 0..<1, using: &generator) < 0.25 {
                caption = String(caption.prefix(70)) + " " + flavours.randomElement(using: &generator)!
            }
            let created = start.addingTimeInterval(Double(Int.random(in: 0..<31_536_000, using: &generator)))
            let completed = Double.random(in: 0..<1, using: &generator) < 0.3
            let uuid = (UInt64.random(in: 0...UInt64.max, using: &generator), UInt64.random(in: 0...UInt64.max, using: &generator))
            tasks.append(
                TaskItem(
                    id: UUID(uuid: uuidBytes(uuid)), caption: caption,
                    section: Double.random(in: 0..<1, using: &generator) < 0.6 ? .priority : .bonus,
                    completed: completed, createdAt: created, completedAt: completed ? created.addingTimeInterval(3600) : nil,
                    due: due(&dueGenerator, around: dueCentre)))
        }
        return TaskList(tasks)
    }

    /// `list` as families of five: in each section, every fifth task a parent and the four
    /// after it its subtasks (issue 54's 20,000 families at 100,000 tasks).
    static func families(_ list: TaskList) -> TaskList {
        var tasks: [TaskItem] = []
        for section in Section.allCases {
            var parent: UUID?
            for (index, task) in list.tasks(in: section).enumerated() {
                var task = task
                if index % 5 == 0 { parent = task.id } else { task.parent = parent }
                tasks.append(task)
            }
        }
        return TaskList(tasks)
    }

    /// The same list with tags from a generator of their own (issue 39's filter benchmark): a
    /// quarter of the tasks `work`, 15% `home`, 5% `project:q4` as well, so that the stores the
    /// other rows use stay as they always were.
    static func tagged(_ list: TaskList, seed: UInt64 = 39) -> TaskList {
        var generator = SeededGenerator(seed: seed)
        return TaskList(
            list.all.map { task in
                var task = task
                var tags: [String] = []
                if Double.random(in: 0..<1, using: &generator) < 0.25 { tags.append("work") }
                if Double.random(in: 0..<1, using: &generator) < 0.15 { tags.append("home") }
                if Double.random(in: 0..<1, using: &generator) < 0.05 { tags.append("project:q4") }
                task.tags = tags
                return task
            })
    }

    private static func due(_ generator: inout SeededGenerator, around centre: Int) -> DueDate? {
        let draw = Double.random(in: 0..<1, using: &generator)
        let day = centre + Int.random(in: -60...60, using: &generator)
        if draw < 0.3 { return .day(day) }
        guard draw < 0.4 else { return nil }
        let zone: DueDate.Zone = draw < 0.35 ? .named("Europe/Berlin") : .named("America/New_York")
        return .time(wallSeconds: Int64(day) * 86_400 + Int64(Int.random(in: 8...18, using: &generator) * 3600), zone: zone)
    }

    /// A version-4 UUID from 128 random bits.
    private static func uuidBytes(_ halves: (UInt64, UInt64)) -> uuid_t {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: halves.0 >> (8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: halves.1 >> (8 * index))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}

/// Removes a store and every file HotTask keeps beside it (a fresh start for a benchmark run).
func removeStore(_ path: String) {
    TaskStore(path: path).ownFiles.forEach { try? FileManager.default.removeItem(atPath: $0) }
}

/// Copies a store to `target`: its snapshot and the change log it was made with (a snapshot
/// alone is refused, as its log may have held changes).
func copyStore(_ source: String, to target: String) {
    for suffix in ["", ".journal"] {
        _ = FileManager.default.createFile(atPath: target + suffix, contents: FileManager.default.contents(atPath: source + suffix))
    }
}
