import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The calls the command line makes into Core (`TaskStore.change`, `undoLastChange`,
/// `importTasks`, `export`): what each says, and that a refusal changes nothing.
@Suite("Command calls")
struct CommandCallsTests {
    let folder = TemporaryFolder()
    private var store: TaskStore { TaskStore(path: folder.storePath) }
    private let dates = DueDisplay(now: Fixtures.date(hours: 0), local: ZoneInfo(identifier: "UTC")!)

    private func add(_ captions: [String], to section: Section = .priority) throws -> ChangeOutcome {
        try store.change(adding: captions, to: section, completing: [], reopening: [], moving: [], deleting: [], dates: dates)
    }

    @Test("adds say where each task went, take the quick way and go on top in the order given")
    func adds() throws {
        _ = try add(["first"])
        let outcome = try add(["A", "B"], to: .bonus)
        #expect(outcome.lines == ["Added to Bonus: A", "Added to Bonus: B"])
        #expect(outcome.added.map(\.caption) == ["A", "B"])
        #expect(outcome.logKnownClean)
        #expect(try store.load().bonus.map(\.caption) == ["A", "B"])
    }

    @Test("changes by list number and by id say one line per step, and an undo takes them back")
    func changesAndUndo() throws {
        let added = try add(["Buy milk", "Call mum"]).added
        let byNumber = try store.change(
            adding: [], to: .priority, completing: ["1"], reopening: [], moving: [], deleting: [], dates: dates)
        #expect(byNumber.lines == ["Completed: Buy milk"])
        #expect(!byNumber.logKnownClean)
        let byID = try store.change(
            adding: [], to: .priority, editing: (String(added[1].id.uuidString.prefix(8)).lowercased(), "Call dad"),
            completing: [], reopening: [], moving: [], deleting: [], dates: dates)
        #expect(byID.lines == ["Edited: Call mum → Call dad"])
        #expect(byID.logKnownClean)
        #expect(try store.undoLastChange() == ["Undone: Edited: Call mum → Call dad"])
        #expect(try store.load().all.map(\.caption) == ["Buy milk", "Call mum"])
    }

    @Test("a refused change names the flag and changes nothing")
    func refusals() throws {
        _ = try add(["Buy milk"])
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.storePath))
        let journal = try? Data(contentsOf: URL(fileURLWithPath: folder.storePath + ".journal"))
        for (completing, reopening, adding, expected) in [
            (["1"], ["1"], [String](), "'Buy milk' is given to both --done and --undone"),
            (["7"], [], [], "--done 7: "),
            ([], [], ["   "], "cannot add '   ': "),
        ] {
            let error = #expect(throws: UserFacingError.self) {
                try store.change(
                    adding: adding, to: .priority, completing: completing, reopening: reopening, moving: [], deleting: [],
                    dates: dates)
            }
            #expect(error?.status == .refused)
            #expect(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "")")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.storePath)) == before)
        #expect((try? Data(contentsOf: URL(fileURLWithPath: folder.storePath + ".journal"))) == journal)
    }

    @Test("nothing to undo is a refusal that says so")
    func nothingToUndo() throws {
        _ = try add(["x"])
        _ = try store.undoLastChange()
        let error = #expect(throws: UserFacingError.self) { try store.undoLastChange() }
        #expect(error?.message.hasPrefix("nothing to undo") == true)
    }

    @Test("an export and its import say what they did")
    func exportAndImport() throws {
        _ = try add(["Buy milk", "Call mum"])
        let file = folder.path("todo.txt")
        var exported: [CommandMessage] = []
        try store.export(try store.load(), as: .todotxt, to: file, standardOutput: { _ in Issue.record("not stdout") }) { exported.append($0) }
        #expect(exported == [.status("Exported 2 tasks to \(file)")])
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try (text + "2026-11-25 Read book\n").write(toFile: file, atomically: true, encoding: .utf8)
        let said = try store.importTasks(from: file, as: .auto, replacing: false, dates: .runningNow)
        #expect(said == [.status("Imported from todo.txt \(file): added 1, updated 0, unchanged 2, skipped 0")])
        #expect(try store.load().count == 3)
    }

    @Test("an export to standard output goes through the closure, in pieces, and writes no file")
    func exportToStandardOutput() throws {
        _ = try add(["Buy milk"])
        var bytes: [UInt8] = []
        var said: [CommandMessage] = []
        try store.export(try store.load(), as: .hottask, to: "-", standardOutput: { bytes += $0 }, say: { said.append($0) })
        #expect(said.isEmpty)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"Buy milk\""))
        #expect(!FileManager.default.fileExists(atPath: folder.path("-")))
    }

    @Test("what an export leaves out is said before it writes, and still said when the write fails")
    func leftOutIsSaidFirst() throws {
        let file = folder.write(
            #"[{"uuid":"a0000001-0000-4000-8000-000000000001","description":"Estimated","status":"pending","entry":"20261101T100000Z","estimate":3}]"#,
            to: "tw.json")
        _ = try store.importTasks(from: file, as: .taskwarrior, replacing: false, dates: .runningNow)
        var said: [CommandMessage] = []
        let failure = #expect(throws: UserFacingError.self) {
            try store.export(
                try store.load(), as: .ics, to: folder.path("no-such-folder/out.ics"), standardOutput: { _ in }, say: { said.append($0) })
        }
        #expect(failure?.status == .storeUnwritable)
        #expect(said == [.note("left out, as this format cannot hold them: Taskwarrior fields of 1 task")])
        var order: [String] = []
        try store.export(
            try store.load(), as: .ics, to: "-", standardOutput: { _ in order.append("document") }, say: { _ in order.append("note") })
        #expect(order.first == "note" && order.dropFirst().allSatisfy { $0 == "document" } && order.count > 1, "\(order)")
    }
}
