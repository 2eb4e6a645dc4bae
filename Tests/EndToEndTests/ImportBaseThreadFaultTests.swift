import Foundation
import TestSupport
import Testing

/// The import's base is written on a thread of its own (`ImportBase.PendingWrite`), which the
/// crash-point tests do not see: their strace follows the main thread only. Its write, fsyncs
/// and rename are the first of their kind in the whole process (the main thread writes nothing
/// before the commit), so strace `-f` with `when=1` or `2` reaches them.
extension ImportBaseCrashPointTests {
    @Test(arguments: [("write", 1), ("fsync", 1), ("rename", 1), ("fsync", 2)])
    func theBaseOnItsOwnThreadFailingOrKilled(_ call: String, _ ordinal: Int) throws {
        try requireTool("strace", from: "strace")
        let (seed, changed) = Self.storeWithAnImport()
        // The second fsync is the folder's after the rename, as every file HotTask writes has
        // it: best effort, its failure changes nothing, so it is only killed.
        for killed in call == "fsync" && ordinal == 2 ? [true] : [false, true] {
            let run = try copy(of: seed)
            let before = try caption(in: run.storePath)
            let result = runProcess([
                "strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)",
                "-e", "inject=\(call):error=EIO\(killed ? ":signal=SIGKILL" : ""):when=\(ordinal)",
                HotTaskBinary.url.path, "--file", run.storePath, "--import", changed,
            ])
            let label = "\(killed ? "killed before" : "EIO from") \(call) #\(ordinal) on the base's thread"
            if killed {
                #expect(result.status == 128 + SIGKILL, "\(label): exit \(result.status)")
            } else {
                // A base that cannot be written refuses the import, changing nothing.
                #expect(result.status == 3, "\(label): exit \(result.status), \(result.stderr)")
                // (A failing first write fails the main thread's first write too: the message's.)
                if call != "write" {
                    let said = result.stderr
                    #expect(said.contains("could not write \(run.storePath).imported") && said.contains("Nothing was changed"), "\(label): \(said)")
                }
            }
            #expect(try caption(in: run.storePath) == before, "\(label): the import went on")
            // Refused, its files are gone; killed, the next import settles what is left.
            if !killed { #expect(run.folder.contents().filter { $0.contains(".next-") } == [], "\(label): pending files left") }
            // A person's next steps: the import again takes the file, and the bases follow.
            #expect(try finalCaption(after: run, changed: changed) == "Changed there", "\(label)")
            #expect(run.folder.contents().filter { $0.contains(".next-") } == [], "\(label): pending files left after the next import")
        }
    }
}
