import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 39 against a real server (Radicale) with Python's caldav as the phone: the phone's
/// DESCRIPTION and CATEGORIES are the note and tags here, a note and tags edited here reach the
/// phone, and a CATEGORIES edit there and a caption edit here, made between two syncs, both
/// survive (the tags merged element by element when both sides changed them).
@Suite("Notes and tags with a real CalDAV server and a phone", .serialized)
struct NotesAndTagsSyncEndToEndTests {
    let folder = TemporaryFolder()

    func hottask(_ arguments: String..., stdin: String? = nil, config: String) -> HotTaskRun {
        HotTaskRun(
            runHotTask(
                ["--file", folder.storePath, "--config", config] + arguments, stdin: stdin, environment: ["TZ": "Europe/Berlin"],
                timeout: 90))
    }

    func config(_ url: String) -> String {
        folder.write("[sync]\nurl = \"\(url)\"\nusername = \"u\"\npassword_command = \"printf 'p\\\\n'\"\n", to: "config.toml")
    }

    /// `--list --json`'s tasks by caption: note and tags as the JSON carries them.
    func listed(_ config: String) throws -> [String: (note: String?, tags: [String]?)] {
        let run = hottask("--list", "--json", config: config)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tasks = try #require(object["tasks"] as? [[String: Any]], "\(run.stdout)")
        return Dictionary(
            tasks.map { ($0["caption"] as? String ?? "", ($0["note"] as? String, $0["tags"] as? [String])) }, uniquingKeysWith: { a, _ in a })
    }

    @Test(
        "a phone's DESCRIPTION and CATEGORIES show here, edits here reach the phone, and a CATEGORIES edit there and a caption edit here both survive"
    )
    func notesAndTagsTravelBothWays() throws {
        let server = try CalDAVTestServer(.radicale)
        let config = config(server.url)
        let sync = { (pulled: Int, pushed: Int, merged: Int) in
            expectOutput(
                self.hottask("--sync", config: config),
                stdout: "Synced with \(server.url): pulled \(pulled), pushed \(pushed), merged \(merged), deleted 0 here and 0 on the server\n",
                command: "hottask --sync")
        }
        try server.phone(
            nil, "add", "Dentist", "--description", "Bring the card\\nand the letter", "--categories", "health,errands", "--sort-order", "1")
        try server.phone(nil, "add", "Call Ann", "--sort-order", "2")
        sync(2, 0, 0)

        // The phone's note and tags, seen here: ✎ and the tags in the list, both in the JSON.
        expectOutput(
            hottask("--list", config: config),
            stdout: """
                Get started - 2 to go!

                Top Priority (0)
                  (none)
                Bonus (2)
                  1. [ ] Dentist ✎ +health +errands
                  2. [ ] Call Ann

                """, command: "hottask --list")
        var here = try listed(config)
        #expect(here["Dentist"]?.note == "Bring the card\nand the letter")
        #expect(here["Dentist"]?.tags == ["health", "errands"])
        #expect(here["Call Ann"]?.note == nil || here["Call Ann"]?.note == "")

        // Edited here: a note of two lines from standard input, a tag added and one taken away,
        // and a note and a tag on the task that had none.
        let id = { (uid: String) in String(TodoMapping.id(forUID: uid).uuidString.lowercased().prefix(8)) }
        let phone0 = try server.phoneTasks()
        let dentistUID = try #require(phone0["Dentist"]?["uid"] as? String)
        let annUID = try #require(phone0["Call Ann"]?["uid"] as? String)
        #expect(
            hottask(
                "--edit", id(dentistUID), "--note", "-", "--tag", "urgent", "--untag", "errands", stdin: "Bring the card\nask about the bill\n",
                config: config
            ).status == 0)
        #expect(hottask("--edit", id(annUID), "--note", "About the move", "--tag", "family", config: config).status == 0)
        sync(0, 2, 0)
        var phone = try server.phoneTasks()
        #expect(phone["Dentist"]?["description"] as? String == "Bring the card\nask about the bill")
        #expect(phone["Dentist"]?["categories"] as? [String] == ["health", "urgent"])
        #expect(phone["Call Ann"]?["description"] as? String == "About the move")
        #expect(phone["Call Ann"]?["categories"] as? [String] == ["family"])

        // Between two syncs: the phone edits CATEGORIES, this side the caption; and on the other
        // task both sides change the tags (the phone adds one, this side takes one away).
        try server.phone(nil, "edit", "Dentist", "--categories", "health,urgent,teeth")
        try server.phone(nil, "edit", "Call Ann", "--categories", "family,weekend", "--description", "About the move\\nand the keys")
        #expect(hottask("--edit", id(dentistUID), "Dentist at 3", config: config).status == 0)
        #expect(hottask("--edit", id(annUID), "--untag", "family", "--tag", "phone", config: config).status == 0)
        sync(2, 2, 2)
        phone = try server.phoneTasks()
        #expect(phone["Dentist at 3"]?["categories"] as? [String] == ["health", "urgent", "teeth"], "\(phone)")
        #expect(phone["Dentist at 3"]?["description"] as? String == "Bring the card\nask about the bill")
        #expect(phone["Call Ann"]?["categories"] as? [String] == ["weekend", "phone"], "\(phone)")
        #expect(phone["Call Ann"]?["description"] as? String == "About the move\nand the keys")
        here = try listed(config)
        #expect(here["Dentist at 3"]?.tags == ["health", "urgent", "teeth"])
        #expect(here["Dentist at 3"]?.note == "Bring the card\nask about the bill")
        #expect(here["Call Ann"]?.tags == ["weekend", "phone"])
        #expect(here["Call Ann"]?.note == "About the move\nand the keys")

        // The phone takes the note away: it goes here too; nothing is left to do after.
        try server.phone(nil, "edit", "Call Ann", "--description", "")
        sync(1, 0, 0)
        #expect(try listed(config)["Call Ann"]?.note == nil || (try listed(config)["Call Ann"]?.note) == "")
        sync(0, 0, 0)
        #expect(try server.phoneTasks()["Call Ann"]?["description"] is NSNull)
    }
}
