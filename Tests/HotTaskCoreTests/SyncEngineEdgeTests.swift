import Foundation
import Seeded
import TestSupport
import Testing

@testable import HotTaskCore

/// The sync engine at its edges: hostile sort orders, deletions that must stay deleted,
/// members moved or left out, and several replicas converging (the rest is in `SyncEngineTests`).
extension SyncEngineTests {
    @Test("hostile sort orders never trap: tasks placed above and below Int.max and Int.min")
    func extremeSortOrders() throws {
        let a = replica("a.json")
        var high = Self.phoneObject(uid: "high", summary: "High", priority: "1")
        high = high.replacingOccurrences(of: "SUMMARY:High", with: "SUMMARY:High\r\nX-APPLE-SORT-ORDER:9223372036854775807")
        var low = Self.phoneObject(uid: "low", summary: "Low", priority: "1")
        low = low.replacingOccurrences(of: "SUMMARY:Low", with: "SUMMARY:Low\r\nX-APPLE-SORT-ORDER:-9223372036854775808")
        server.store("/calendar/high.ics", high)
        server.store("/calendar/low.ics", low)
        try a.sync()
        try a.add("Top")
        try a.change("Low") { list, position in list.moving(from: position, to: .priority, index: 2) }
        try a.sync()
        #expect(a.list.all.map(\.caption).sorted() == ["High", "Low", "Top"])
    }

    @Test("a completed task deleted here stays deleted when the phone only touched it; a new sort order is no edit")
    func deletedCompletedTaskStaysDeleted() throws {
        let a = replica("a.json")
        try a.add("Done already")
        try a.change("Done already") { list, position in list.completing(true, at: position, now: a.now, local: .current) }
        try a.sync()
        let href = try #require(self.href(of: "Done already"))
        try a.change("Done already") { list, position in list.deleting(at: position) }
        server.edit(href, "X-APPLE-SORT-ORDER", "42", now: a.now + 5)
        try a.sync()
        #expect(a.list.isEmpty)
        #expect(server.objects[href] == nil)
    }

    @Test("a member the server does not send, or moves to another href, is not taken as deleted")
    func missingOrMovedIsNotDeleted() throws {
        let a = replica("a.json")
        try a.add("Keep me")
        try a.add("Moved")
        try a.sync()
        let keep = try #require(self.href(of: "Keep me"))
        let moved = try #require(self.href(of: "Moved"))
        server.edit(keep, "SUMMARY", "Keep me, edited", now: a.now + 5)
        server.withheld = [keep]
        let body = try #require(server.objects[moved]?.body)
        server.remove(moved)
        server.store("/calendar/elsewhere/moved.ics", body)
        try a.sync()
        #expect(Set(a.list.all.map(\.caption)) == ["Keep me", "Moved"])
        server.withheld = []
        try a.sync()
        #expect(Set(a.list.all.map(\.caption)) == ["Keep me, edited", "Moved"])
        #expect(server.objects.count == 2)
    }

    /// Three replicas make random edits and sync in random order, with the phone editing too;
    /// after a last round all lists equal the server's, and each field of a task nobody
    /// deleted holds its latest edit.
    @Test("three replicas converge and keep every field's latest edit", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func threeReplicasConverge(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let replicas = ["a.json", "b.json", "c.json"].map { replica($0) }
        var time = Self.start
        var latest: [UUID: [String: (Date, String)]] = [:]
        var deletedByAnyone = Set<UUID>()
        func record(_ id: UUID, _ field: String, _ value: String) { latest[id, default: [:]][field] = (time, value) }
        for step in 0..<60 {
            time += 1
            let replica = replicas[Int.random(in: 0..<3, using: &random)]
            replica.now = time
            let list = replica.list
            let action = Int.random(in: 0..<10, using: &random)
            switch action {
            case _ where action <= 1 && list.count < 12:
                let caption = "Task \(step)"
                try replica.add(caption, Bool.random(using: &random) ? .priority : .bonus)
                if let id = replica.task(caption)?.id {
                    record(id, "caption", caption)
                }
            case _ where (2...3).contains(action) && !list.isEmpty:
                let position = Int.random(in: 0..<list.count, using: &random)
                let caption = "Edit \(step)"
                try replica.store.commit([list.renaming(at: position, to: caption)!], what: "edit", now: time)
                record(list[position].id, "caption", caption)
            case _ where action == 4 && !list.isEmpty:
                let position = Int.random(in: 0..<list.count, using: &random)
                if let change = list.completing(!list[position].completed, at: position, now: time, local: .current) {
                    try replica.store.commit([change], what: "toggle", now: time)
                    record(list[position].id, "completed", String(!list[position].completed))
                }
            case _ where action == 5 && !list.isEmpty:
                let position = Int.random(in: 0..<list.count, using: &random)
                let task = list[position]
                if let change = list.moving(from: position, to: task.section.other, index: 0) {
                    try replica.store.commit([change], what: "move", now: time)
                    record(task.id, "section", task.section.other.rawValue)
                }
            case _ where action == 6 && !list.isEmpty && Int.random(in: 0..<3, using: &random) == 0:
                let position = Int.random(in: 0..<list.count, using: &random)
                deletedByAnyone.insert(list[position].id)
                try replica.store.commit([list.deleting(at: position)], what: "delete", now: time)
            case _ where action == 7 && !server.objects.isEmpty:
                // The phone renames a task.
                let href = server.objects.keys.sorted()[Int.random(in: 0..<server.objects.count, using: &random)]
                if let todo = TodoMapping.read(server.objects[href]!.body).todo {
                    let caption = "Phone \(step)"
                    server.edit(href, "SUMMARY", caption, now: time)
                    record(TodoMapping.id(forUID: todo.uid), "caption", caption)
                }
            default:
                try replica.sync()
            }
        }
        time += 1
        for replica in replicas + replicas {
            replica.now = time
            try replica.sync()
        }
        let serverTasks = Dictionary(
            uniqueKeysWithValues: server.objects.values.compactMap { TodoMapping.read($0.body).todo }.map {
                (TodoMapping.id(forUID: $0.uid), $0.fields)
            })
        for replica in replicas {
            let here = Dictionary(uniqueKeysWithValues: replica.list.all.map { ($0.id, $0) })
            #expect(Set(here.keys) == Set(serverTasks.keys), "seed \(seed): \(replica.store.path) holds other tasks than the server")
            for (id, task) in here {
                let there = serverTasks[id]
                #expect(there?.caption == task.caption && there?.section == task.section && there?.completed == task.completed)
                guard !deletedByAnyone.contains(id), let edits = latest[id] else { continue }
                if let (_, caption) = edits["caption"] { #expect(task.caption == caption, "seed \(seed): a caption edit was lost") }
                if let (_, section) = edits["section"] { #expect(task.section.rawValue == section, "seed \(seed): a move was lost") }
                if let (_, completed) = edits["completed"] {
                    #expect(String(task.completed) == completed, "seed \(seed): a completion was lost")
                }
            }
        }
        for id in latest.keys where serverTasks[id] == nil {
            #expect(deletedByAnyone.contains(id), "seed \(seed): a task nobody deleted is gone")
        }
    }

    static func phoneObject(uid: String, summary: String, priority: String?) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T100000Z",
            "CREATED:20261120T100000Z", "LAST-MODIFIED:20261120T100000Z", "SUMMARY:\(summary)", "STATUS:NEEDS-ACTION",
            "DUE;VALUE=DATE:20261201", "CATEGORIES:errands,health",
        ]
        if let priority { lines.append("PRIORITY:\(priority)") }
        lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM", "END:VTODO", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
