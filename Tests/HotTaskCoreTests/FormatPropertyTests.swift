import Foundation
import Seeded
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 52's property for the formats other than todo.txt (`TodoTxtPropertyTests`), over
/// 1,000 generated tasks from a seeded stream (a failure names its seed): tasks made here with
/// notes, tags, repeats and due dates, exported and imported into an empty store, come back with
/// the same fields; exported again from there, each file is byte for byte the first.
@Suite("round trips of generated tasks through each format")
struct FormatPropertyTests {
    let folder = TemporaryFolder()
    private static let words = ["Call", "mom", "about", "the", "trip", "Fix", "bike", "tyre", "C++", "ça", "📦", "x1", "a;b", "c,d", "\"q\""]
    private static let notes = ["", "", "Line one", "Line one\nline two", "Tabs\tand \\ backslashes", "Über;, commas"]
    private static let tags = ["garden", "family", "@home", "@phone", "work", "big_trip", "project:q4"]
    private static let rules = ["FREQ=DAILY", "FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2", "FREQ=MONTHLY", "FREQ=YEARLY", "FREQ=WEEKLY;BYDAY=MO,TH"]

    /// A task as a person makes one here: a caption of a few words, and now and then a note,
    /// tags, a due day (or a time), a repeat, done.
    private static func task(_ n: Int, _ random: inout SeededGenerator) -> TaskItem {
        let caption = ((0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! } + ["n\(n)"]).joined(
            separator: " ")
        let created = Date(timeIntervalSince1970: 1_790_000_000 + Double(Int.random(in: 0..<5_000_000, using: &random)))
        var task = TaskItem(
            caption: caption, section: Bool.random(using: &random) ? .priority : .bonus, createdAt: created,
            note: notes.randomElement(using: &random)!, tags: Array(tags.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))))
        if Int.random(in: 0..<3, using: &random) > 0 {
            let day = String(format: "2030-%02d-%02d", Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random))
            task.due = Bool.random(using: &random) ? DueDate(text: day, zone: nil) : DueDate(text: day + "T09:30:00Z", zone: nil)
            if Int.random(in: 0..<3, using: &random) == 0, let rule = RepeatRule(rrule: rules.randomElement(using: &random)!) {
                task.repeatRule = rule
                task.due = task.due.map { rule.onOccurrence($0) }
            }
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
            task.completed = true
            task.completedAt = created.addingTimeInterval(3600)
        }
        return task
    }

    /// What a round trip must keep of a task, by id.
    private struct Kept: Equatable, CustomStringConvertible {
        var caption: String
        var note: String
        var tags: [String]
        var due: String
        var repeatRule: String
        var completed: Bool

        /// Taskwarrior keeps a `project:` tag as the task's project, apart from its tags: which
        /// place it had among them is not in the file.
        init(_ task: TaskItem, _ format: ExportFormat) {
            caption = task.caption
            note = task.note
            tags = format == .taskwarrior ? task.tags.sorted() : task.tags
            due = task.due.map { $0.text() } ?? "none"
            repeatRule = task.repeatRule.stored
            completed = task.completed
        }

        var description: String { "\(caption) | \(note.debugDescription) | \(tags) | \(due) | \(repeatRule) | done \(completed)" }
    }

    private func exported(_ store: TaskStore, _ format: ExportFormat, to path: String) throws -> String {
        try store.export(try store.load(), as: format, to: path, standardOutput: { _ in }) { _ in }
        if format != .vdir { return fileText(path) ?? "" }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        return names.map { "\($0)\n" + (fileText(path + "/" + $0) ?? "") }.joined(separator: "\n")
    }

    @Test(arguments: [ExportFormat.hottask, .taskwarrior, .ics, .vdir])
    func generatedTasksComeBackAsTheyWereAndTheFileByteForByte(format: ExportFormat) throws {
        for seed in [UInt64(52), 2026] {
            var random = SeededGenerator(seed: seed)
            let tasks = (0..<1_000).map { Self.task($0, &random) }
            let source = TaskStore(path: folder.path("source-\(seed)-\(format).json"))
            try source.commit(tasks.map { .add($0) }, what: "generated")
            let file = folder.path("out-\(seed).\(format)")
            let first = try exported(source, format, to: file)
            let target = TaskStore(path: folder.path("target-\(seed)-\(format).json"))
            let importFormat: ImportFormat = format == .hottask ? .hottask : format == .taskwarrior ? .taskwarrior : .ics
            _ = try target.importTasks(from: file, as: importFormat, replacing: false, dates: .runningNow)
            let back = Dictionary(uniqueKeysWithValues: try target.load().all.map { ($0.id, Kept($0, format)) })
            #expect(back.count == tasks.count, "seed \(seed), \(format): \(back.count) tasks came back")
            var differing = 0
            for task in tasks where back[task.id] != Kept(task, format) {
                differing += 1
                if differing <= 3 {
                    Issue.record("seed \(seed), \(format): '\(Kept(task, format))' came back as '\(back[task.id].map(\.description) ?? "nothing")'")
                }
            }
            #expect(differing == 0, "seed \(seed), \(format): \(differing) tasks differ")
            // Untouched, the file goes back into the store that wrote it and comes out the same.
            _ = try source.importTasks(from: file, as: importFormat, replacing: false, dates: .runningNow)
            let second = try exported(source, format, to: folder.path("again-\(seed).\(format)"))
            // Line by line, the first few that differ named: a failure must not print megabytes.
            let (before, after) = (first.split(separator: "\n"), second.split(separator: "\n"))
            let changed = zip(before, after).filter { $0 != $1 }
            #expect(before.count == after.count && changed.isEmpty, "seed \(seed), \(format): \(changed.count) lines differ")
            for (was, now) in changed.prefix(2) { Issue.record("seed \(seed), \(format): wrote '\(was)' then '\(now)'") }
        }
    }
}
