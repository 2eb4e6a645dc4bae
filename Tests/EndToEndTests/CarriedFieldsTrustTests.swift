import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// `tasks.json.carried` is a side file like the others: opened without blocking, trusted only
/// when it is this user's own, and one that cannot be read stops what it would make lossy.
@Suite("carried fields side file")
struct CarriedFieldsTrustTests {
    let folder = TemporaryFolder()
    private var carried: String { folder.storePath + ".carried" }

    private func hottask(_ args: String..., stdin: String? = nil) -> (status: Int32, stdout: String, stderr: String) {
        runHotTask(["--file", folder.storePath] + args, stdin: stdin, timeout: 10)
    }

    static let export =
        #"[{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","description":"Call Bob","status":"pending","entry":"20261120T100000Z","tags":["phone"],"project":"home","estimate":3}]"#

    @Test func aNamedPipeInItsPlaceIsAnErrorNamingItNeverAWait() throws {
        #expect(mkfifo(carried, 0o600) == 0)
        let run = hottask("--import", "-", stdin: Self.export)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains(carried) && run.stderr.contains("named pipe") && run.stderr.contains("Nothing was changed"), "\(run.stderr)")
        #expect(hottask("--list").stdout.contains("Call Bob") == false)
        #expect(hottask("--add", "Buy milk").status == 0)
        // An export that would write them back cannot go without them...
        let taskwarrior = hottask("--export", "-", "--export-format", "taskwarrior")
        #expect(taskwarrior.status == 1 && taskwarrior.stdout.isEmpty, "\(taskwarrior.stderr)")
        #expect(taskwarrior.stderr.contains(carried) && taskwarrior.stderr.contains("Nothing was written"), "\(taskwarrior.stderr)")
        // ...one that holds none of them goes on, with a warning.
        let own = hottask("--export", "-")
        #expect(own.status == 0 && own.stdout.contains("Buy milk") && own.stderr.contains(carried), "\(own.stderr)")
    }

    @Test func oneOthersMayWriteIsRefusedNamingItsMode() throws {
        #expect(hottask("--import", "-", stdin: Self.export).status == 0)
        #expect(FileManager.default.fileExists(atPath: carried))
        #expect(chmod(carried, 0o666) == 0)
        let run = hottask("--export", "-", "--export-format", "taskwarrior")
        #expect(run.status == 1)
        #expect(run.stderr.contains("others may write it (mode 666)"), "\(run.stderr)")
    }

    @Test func aReimportWithoutTheFieldsForgetsThem() throws {
        #expect(hottask("--import", "-", stdin: Self.export).status == 0)
        #expect(hottask("--export", "-", "--export-format", "taskwarrior").stdout.contains(#""tags":["phone"]"#))
        // Taskwarrior's export now has no tags or project for the task: neither has the next export.
        let bare = #"[{"uuid":"a1b2c3d4-0000-4000-8000-000000000001","description":"Call Bob","status":"pending","entry":"20261120T100000Z"}]"#
        #expect(hottask("--import", "-", stdin: bare).status == 0)
        let again = hottask("--export", "-", "--export-format", "taskwarrior").stdout
        #expect(!again.contains("tags") && !again.contains("project"), "\(again)")
    }
}
