import Foundation
import TestSupport
import Testing

/// Issue 54 against a real server (Radicale) with Python's caldav as the phone, writing
/// subtasks as Tasks.org does (UIDs that are not UUIDs, RELATED-TO with and without RELTYPE):
/// they arrive under their parent, and a subtask made here reaches the phone naming its
/// parent's UID, on a later sync and on the first one after an import of the phone's file.
@Suite("Subtasks with a real CalDAV server and a phone", .serialized)
struct SubtasksSyncEndToEndTests {
    let folder = TemporaryFolder()

    func hottask(_ arguments: String..., config: String) -> HotTaskRun {
        HotTaskRun(runHotTask(["--file", folder.storePath, "--config", config] + arguments, timeout: 90))
    }

    func config(_ url: String) -> String {
        folder.write("[sync]\nurl = \"\(url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "config.toml")
    }

    /// A Tasks.org to-do: its own UID, and its parent named as Tasks.org names it.
    static func todo(_ uid: String, _ summary: String, related: String? = nil) -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tasks.org//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261129T120000Z", "SUMMARY:\(summary)"]
            .joined(separator: "\\r\\n") + (related.map { "\\r\\n" + $0 } ?? "") + "\\r\\nEND:VTODO\\r\\nEND:VCALENDAR\\r\\n"
    }

    /// The phone's to-dos: summary → parent UID ("-" for none).
    func phoneParents(_ server: CalDAVTestServer) throws -> [String: String] {
        let list = try server.phone(nil, "list") as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["summary"] as? String ?? "", $0["parent"] as? String ?? "-") }, uniquingKeysWith: { a, _ in a })
    }

    @Test("a phone's subtasks arrive under their parent, and one made here reaches the phone under its parent's UID")
    func phoneSubtasksBothWays() throws {
        let server = try CalDAVTestServer(.radicale)
        let config = config(server.url)
        try server.phone(nil, "add-raw", Self.todo("tasks-1001", "Plan the trip"))
        try server.phone(nil, "add-raw", Self.todo("tasks-1002", "Book flights", related: "RELATED-TO;RELTYPE=PARENT:tasks-1001"))
        try server.phone(nil, "add-raw", Self.todo("tasks-1003", "Pack", related: "RELATED-TO:tasks-1001"))
        #expect(hottask("--sync", config: config).status == 0)
        let listed = hottask("--list", config: config).stdout
        // Each row past its number: the parent first, then its subtasks indented.
        let rows = listed.split(separator: "\n").filter { $0.contains("[ ]") }.map {
            String($0.replacing(#/^ *[0-9]+\./#, with: ""))
        }
        #expect(rows.first == " [ ] Plan the trip" && rows.dropFirst().sorted() == ["   [ ] Book flights", "   [ ] Pack"], "\(listed)")
        let pack = try #require(
            listed.split(separator: "\n").first { $0.hasSuffix("Pack") }?.split(separator: ".").first?.trimmingCharacters(in: .whitespaces))
        #expect(hottask("--add", "Passport", "--under", pack, config: config).status == 0)
        #expect(hottask("--sync", config: config).status == 0)
        #expect(try phoneParents(server) == ["Plan the trip": "-", "Book flights": "tasks-1001", "Pack": "tasks-1001", "Passport": "tasks-1003"])
    }

    @Test("after an import of the phone's file, a subtask made here is written on the first sync under its parent's own UID")
    func importedThenFirstSync() throws {
        let server = try CalDAVTestServer(.radicale)
        let config = config(server.url)
        let file = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tasks.org//EN",
            "BEGIN:VTODO", "UID:1001", "SUMMARY:Plan the trip", "END:VTODO",
            "BEGIN:VTODO", "UID:1003", "SUMMARY:Pack", "RELATED-TO;RELTYPE=PARENT:1001", "END:VTODO",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        folder.write(file, to: "phone.ics")
        #expect(hottask("--quiet", "--import", folder.path("phone.ics"), config: config).status == 0)
        #expect(hottask("--add", "Passport", "--under", "2", config: config).status == 0)
        #expect(hottask("--sync", config: config).status == 0)
        #expect(try phoneParents(server) == ["Plan the trip": "-", "Pack": "1001", "Passport": "1003"])
    }

    /// The rows `--list` shows, past their numbers: a subtask indented under its parent.
    func tree(_ config: String) -> [String] {
        hottask("--list", config: config).stdout.split(separator: "\n").filter { $0.contains("[ ]") }.map {
            String($0.replacing(#/^ *[0-9]+\. /#, with: ""))
        }
    }

    /// The parent is a field like any other: a relation the phone removes makes the task
    /// top-level here, one it changes moves the task, and a move here with a phone's rename of
    /// the same task at the same time keeps both.
    @Test("a relation removed or changed on the phone moves the task here; a move here and a rename there both hold")
    func relationsChangedOnThePhone() throws {
        let server = try CalDAVTestServer(.radicale)
        let config = config(server.url)
        try server.phone(nil, "add-raw", Self.todo("tasks-2001", "Plan the trip"))
        try server.phone(nil, "add-raw", Self.todo("tasks-2002", "Book flights", related: "RELATED-TO;RELTYPE=PARENT:tasks-2001"))
        try server.phone(nil, "add-raw", Self.todo("tasks-2003", "Pack", related: "RELATED-TO:tasks-2001"))
        #expect(hottask("--sync", config: config).status == 0)
        #expect(tree(config).sorted() == ["  [ ] Book flights", "  [ ] Pack", "[ ] Plan the trip"])
        try server.phone(nil, "edit", "Pack", "--parent", "none")
        try server.phone(nil, "edit", "Book flights", "--parent", "tasks-2003")
        #expect(hottask("--sync", config: config).status == 0)
        let moved = tree(config)
        #expect(moved.contains("[ ] Plan the trip") && moved.contains("[ ] Pack"), "\(moved)")
        #expect(moved.firstIndex(of: "  [ ] Book flights") == moved.firstIndex(of: "[ ] Pack").map { $0 + 1 }, "\(moved)")
        // Here: Pack goes under Plan the trip again; there: it is renamed, before either syncs.
        let pack = try #require(
            hottask("--list", config: config).stdout.split(separator: "\n").first { $0.hasSuffix("Pack") }?.split(separator: ".").first
                .map { $0.trimmingCharacters(in: .whitespaces) })
        let plan = try #require(
            hottask("--list", config: config).stdout.split(separator: "\n").first { $0.hasSuffix("Plan the trip") }?.split(separator: ".").first
                .map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(hottask("--edit", pack, "--under", plan, config: config).status == 0)
        try server.phone(nil, "edit", "Pack", "--summary", "Pack the bags")
        #expect(hottask("--sync", config: config).status == 0)
        #expect(try phoneParents(server) == ["Plan the trip": "-", "Pack the bags": "tasks-2001", "Book flights": "tasks-2003"])
        let both = tree(config)
        #expect(both.first == "[ ] Plan the trip" && both.contains("  [ ] Pack the bags") && both.contains("    [ ] Book flights"), "\(both)")
    }
}
