import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 53, formats: which list an import's new tasks go to, and the folder a list's tasks
/// are written to in a vdir of several lists.
@Suite("lists in imports and vdir folder names")
struct ImportListsTests {
    private func batch(_ lists: [String], makesMissing: Bool) -> ImportBatch {
        var batch = ImportBatch(
            format: .iCalendar,
            tasks: lists.map { list in
                var task = TaskItem(caption: "in \(list)", completed: false, createdAt: Fixtures.baseDate)
                task.list = list
                return task
            }, skipped: 0)
        batch.namedLists = ImportBatch.NamedLists(names: Array(Set(lists.filter { !$0.isEmpty })).sorted(), makesMissing: makesMissing)
        return batch
    }

    private var store: TaskList {
        var list = TaskList()
        list.lists = ListNames(stored: ["Tasks", "Work"])!
        return list
    }

    @Test func aVdirsListsAreFoundIgnoringCaseOrMadeAndTheDefaultListIsStoredAsNothing() {
        var incoming = batch(["", "tasks", "WORK", "Home"], makesMissing: true)
        let placement = store.placing(&incoming)
        #expect(incoming.tasks.map(\.list) == ["", "", "Work", "Home"])
        #expect(placement.made == ["Home"] && placement.unknown.isEmpty)
        #expect(placement.change == ListNamesChange(after: ListNames(stored: ["Tasks", "Work", "Home"])!, before: store.lists))
    }

    @Test func anIcsFilesNameOfNoListSendsItsTasksToTheDefaultListAndMakesNone() {
        var incoming = batch(["Garden"], makesMissing: false)
        let placement = store.placing(&incoming)
        #expect(incoming.tasks.map(\.list) == [""])
        #expect(placement == TaskList.ImportPlacement(change: nil, made: [], unknown: ["Garden"]))
    }

    @Test func aFileThatNamesNoListChangesNothing() {
        var incoming = ImportBatch(format: .iCalendar, tasks: [TaskItem(caption: "x", completed: false, createdAt: Fixtures.baseDate)], skipped: 0)
        let before = incoming
        #expect(store.placing(&incoming) == TaskList.ImportPlacement())
        #expect(incoming == before)
    }

    @Test func folderNamesAreSafeAndDistinctIgnoringCase() {
        #expect(VdirFolder.folderName(for: "Home/Garden", avoiding: []) == "Home_Garden")
        #expect(VdirFolder.folderName(for: ".config", avoiding: []) == "_config")
        #expect(VdirFolder.folderName(for: "a\\b:c", avoiding: []) == "a_b_c")
        #expect(VdirFolder.folderName(for: "Caf\u{E9} \u{1F600}", avoiding: []) == "Caf\u{E9} \u{1F600}")
        #expect(VdirFolder.folderName(for: "Work", avoiding: ["work"]) == "Work 2")
        #expect(VdirFolder.folderName(for: "Work", avoiding: ["work", "WORK 2"]) == "Work 3")
        #expect(VdirFolder.folderName(for: "..", avoiding: []) == "_.")
    }
}
