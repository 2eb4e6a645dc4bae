import TestSupport
import Testing

@testable import HotTaskCore

@Suite("Progress summary")
struct ProgressTests {
    @Test(
        "shows one of the four captions",
        arguments: [
            (0, 0, "It's lonely here - add some tasks!"),
            (0, 3, "Get started - 3 to go!"),
            (1, 3, "1 down 2 to go!"),
            (3, 3, "Well done - 3 completed!"),
            (0, 1, "Get started - 1 to go!"),
            (1, 1, "Well done - 1 completed!"),
        ])
    func summary(completed: Int, total: Int, expected: String) {
        #expect(Progress(completed: completed, total: total).summary == expected)
    }

    @Test("reads its counts from a list")
    func fromList() {
        let progress = Progress(Fixtures.sampleList())
        #expect(progress == Progress(completed: 1, total: 3))
        #expect(progress.remaining == 2)
        #expect(progress.summary == "1 down 2 to go!")
    }

    @Test("an empty list is lonely")
    func emptyList() {
        #expect(Progress(TaskList()).summary == "It's lonely here - add some tasks!")
    }
}
