import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Quitting when the store cannot take the UI's tasks: they go to a rescue file, all of them.
@Suite("Rescue on quit", .serialized)
struct RescueTests {
    @Test func aStoreDamagedFromOutsideLeavesARescueFileHoldingEveryTaskTheUnsavedOneToo() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk", "Call mom"])
        session.waitForText("Call mom")
        try Data("garbage{".utf8).write(to: URL(fileURLWithPath: session.storePath))
        let footer = session.waitForText("tasks.json is damaged: ^C saves your tasks to a rescue file")
        #expect(
            footer.components(separatedBy: "\n").contains { $0.hasPrefix("Not saved: tasks.json is damaged: ^C saves your tasks to a rescue file") })
        session.type("typed after the damage")
        session.press("Enter")
        session.waitForText("› [ ] typed after the damage")
        session.press("C-c")
        let screen = session.waitForExit()
        session.expectScreenSnapshot()
        #expect(screen.contains("exited with 3"))
        #expect(screen.contains("quit with changes that could not be saved (1)"))
        let folder = (session.storePath as NSString).deletingLastPathComponent
        let rescues = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("tasks.json.rescue-") }
        #expect(rescues.count == 1)
        let name = try #require(rescues.first)
        #expect(name.range(of: #"^tasks\.json\.rescue-\d{8}T\d{6}Z$"#, options: .regularExpression) != nil)
        let path = folder + "/" + name
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains(path), "stderr names the file")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let rescued = try StoreDocument.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).list
        #expect(rescued.all.map(\.caption) == ["typed after the damage", "Buy milk", "Call mom"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: session.storePath)) == Data("garbage{".utf8), "the damaged store is left as it was")
        // And it brings them back into a store, as the message says.
        let fresh = TemporaryFolder()
        #expect(runHotTask(["--file", fresh.storePath, "--import", path]).status == 0)
        #expect(try TaskStore(path: fresh.storePath).load().all.map(\.caption) == ["typed after the damage", "Buy milk", "Call mom"])
    }

    /// A store damaged for a moment and mended (a sync tool, an editor saving) is fine again:
    /// the footer says so no more, and quitting writes no rescue file.
    @Test func aStoreMendedWhileTheAppRunsNeedsNoRescue() throws {
        let session = try TmuxSession(seededCaptions: ["Buy milk", "Call mom"])
        session.waitForText("Call mom")
        let good = try Data(contentsOf: URL(fileURLWithPath: session.storePath))
        try Data("garbage{".utf8).write(to: URL(fileURLWithPath: session.storePath))
        session.waitForText("tasks.json is damaged")
        try good.write(to: URL(fileURLWithPath: session.storePath))
        session.waitForScreen("the damage no longer shown") { !$0.contains("is damaged") }
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))
        let folder = (session.storePath as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".rescue-") }.isEmpty)
    }
}
