import Foundation
import TestSupport
import Testing

/// I/O errors proven point by point: each command that changes the store is run once under
/// strace to list its calls, then once per call that writes, syncs, renames or removes, with
/// that one call failing (EIO; ENOSPC for writes and syncs, a full disk). Every time the store
/// must read as before the command or as the command leaves it, never a mix; an exit 0 must
/// leave the new state and an exit 3 ("nothing was changed") the old one; and the next command
/// must work on what is left.
@Suite("An I/O error at each write, sync and rename")
struct InjectedIOErrorTests {
    /// The calls an error is injected into, and the errors each gets.
    static let failingCalls: [String: [String]] = [
        "write": ["EIO", "ENOSPC"], "pwrite64": ["EIO", "ENOSPC"], "writev": ["EIO", "ENOSPC"], "fsync": ["EIO", "ENOSPC"],
        "fdatasync": ["EIO", "ENOSPC"], "rename": ["EIO"], "renameat": ["EIO"], "renameat2": ["EIO"], "ftruncate": ["EIO"],
        "unlink": ["EIO"], "unlinkat": ["EIO"], "link": ["EIO"], "linkat": ["EIO"], "mkdir": ["EIO"], "mkdirat": ["EIO"],
    ]

    @Test(arguments: CrashPointTests.commands)
    func everyFailedCallLeavesTheOldOrTheNewStore(_ command: CrashPointTests.Command) throws {
        try requireTool("strace", from: "strace")
        let seed = try CrashPointTests.Seed()
        let arguments = command.arguments(seed)
        let (before, after, changing) = try CrashPointTests.cleanRun(command, on: seed)
        let points = changing.filter { Self.failingCalls[$0.call] != nil }
        #expect(points.count >= 3, "only \(points.count) points found")

        var outcomes: [String: Int] = [:]
        for point in points {
            for error in Self.failingCalls[point.call] ?? [] {
                let run = try seed.copy()
                let failed = runProcess(
                    [
                        "strace", "-qq", "-o", "/dev/null", "-e", "trace=\(point.call)",
                        "-e", "inject=\(point.call):error=\(error):when=\(point.ordinal)",
                        HotTaskBinary.url.path, "--file", run.storePath,
                    ] + arguments,
                    environment: command.environment, timeout: 30)
                let label = "\(error) at \(point.call) #\(point.ordinal) (exit \(failed.status))"
                #expect(failed.status < 128, "\(label): died of a signal: \(failed.stderr)")
                let listed = runHotTask(["--file", run.storePath, "--list", "--json"])
                if listed.status == 2 {
                    // Damage is reported, never guessed around; --recover must then keep
                    // everything the command did not change.
                    let recovered = runHotTask(["--file", run.storePath, "--recover"])
                    #expect(recovered.status == 0, "\(label): --recover failed: \(recovered.stderr)")
                }
                let seen = try seed.projection(of: run.storePath, label: label)
                #expect(seen == before || seen == after, "\(label): a state no command made:\n\(seen)")
                if failed.status == 0 { #expect(seen == after, "\(label): exit 0 but the change is not there") }
                if failed.status == 3 { #expect(seen == before, "\(label): exit 3 says nothing changed, but it did") }
                outcomes[seen == after ? "new" : "old", default: 0] += 1
                let next = runHotTask(["--file", run.storePath, "--add", "After the error"])
                #expect(next.status == 0, "\(label): the next command failed: \(next.stderr)")
            }
        }
        #expect(outcomes.values.reduce(0, +) >= points.count)
        // The counts for the record (RELIABILITY.md): how many errors, how many ended old or new.
        print("\(command.name): \(outcomes.values.reduce(0, +)) injected errors at \(points.count) calls: \(outcomes)")
    }
}
