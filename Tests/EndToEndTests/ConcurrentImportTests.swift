import Foundation
import TestSupport
import Testing

/// Import bases are read and written inside the import's transaction: two imports at once, of
/// two formats, can neither overwrite each other's bases nor read them half done.
@Suite struct ConcurrentImportTests {
    @Test func twelveRoundsOfATodoTxtAndATaskwarriorImportAtOnceDuplicateNothing() async throws {
        let folder = TemporaryFolder()
        let store = folder.storePath
        for number in 1...10 { #expect(runHotTask(["--file", store, "--add", "Task \(number)"]).status == 0) }
        let todo = folder.path("todo.txt")
        let warrior = folder.path("warrior.json")
        #expect(runHotTask(["--file", store, "--export", todo, "--export-format", "todotxt"]).status == 0)
        #expect(runHotTask(["--file", store, "--export", warrior, "--export-format", "taskwarrior"]).status == 0)
        for round in 1...12 {
            let statuses = await withTaskGroup(of: (Int32, String).self) { group in
                for file in [todo, warrior] {
                    group.addTask {
                        let run = runHotTask(["--file", store, "--import", file])
                        return (run.status, run.stderr)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0.0 == 0 }, "round \(round): \(statuses)")
            #expect(storedCaptions(folder).count == 10, "round \(round): nothing duplicated")
        }
        #expect(storedCaptions(folder) == (1...10).map { "Task \($0)" }.sorted())
        // A line then removed from todo.txt still deletes its task.
        let lines = try String(contentsOfFile: todo, encoding: .utf8).split(separator: "\n").filter {
            !$0.hasSuffix("Task 3") && !$0.contains("Task 3 ")
        }
        #expect(lines.count == 9)
        try (lines.joined(separator: "\n") + "\n").write(toFile: todo, atomically: true, encoding: .utf8)
        let removed = runHotTask(["--file", store, "--import", todo])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(storedCaptions(folder) == (1...10).filter { $0 != 3 }.map { "Task \($0)" }.sorted())
    }
}
