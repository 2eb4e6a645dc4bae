import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The real binary in tmux: a family made on the command line is folded with z, indented
/// with l, and the fold comes back at the next start (issue 54).
@Suite("Folds in the terminal", .serialized)
struct SubtaskFoldsTmuxTests {
    @Test func zFoldsAFamilyLIndentsAndTheFoldIsRememberedForTheNextStart() throws {
        let folder = TemporaryFolder()
        let store = folder.storePath
        expectRun(["--file", store, "--quiet", "--add", "Buy milk"])
        expectRun(["--file", store, "--quiet", "--add", "Plan the trip"])
        expectRun(["--file", store, "--quiet", "--add", "Pack", "--add", "Book flights", "--under", "1"])
        expectRun(["--file", store, "--quiet", "--done", "2"])
        let state = folder.path("state")
        let session = try TmuxSession(width: 60, height: 10, environment: ["XDG_STATE_HOME": state], storePath: store)
        session.waitForText("Plan the trip  ▾ 1/2")
        session.press("Tab")
        session.type("z")
        session.waitForText("Plan the trip  ▸ 1/2")
        session.type("j")
        session.type("l")  // Buy milk under the trip: the fold opens
        session.waitForText("Moved “Buy milk” under “Plan the trip”")
        session.type("k")
        session.type("k")
        session.type("z")
        session.expectScreenSnapshot()
        session.press("C-c")
        #expect(session.waitForExit().contains("exited with 0"))

        let again = try TmuxSession(width: 60, height: 10, environment: ["XDG_STATE_HOME": state], storePath: store)
        again.waitForText("› [ ] Plan the trip  ▸ 1/3")
        again.press("C-c")
        again.waitForExit()
        expectRun(
            ["--file", store, "--list"],
            stdout: """
                1 down 3 to go!

                Top Priority (4)
                  1. [ ] Plan the trip
                  2.   [x] Pack
                  3.   [ ] Book flights
                  4.   [ ] Buy milk
                Bonus (0)
                  (none)

                """)
    }
}
