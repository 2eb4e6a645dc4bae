import Foundation
import HotTaskCore
import Testing
import TestSupport

/// The UI's saves merge with what other processes wrote meanwhile; nothing may be lost.
@Suite("Three-way merge of our changes and theirs")
struct ThreeWayMergeTests {
    let base = TaskList([
        Fixtures.task("A", id: 1), Fixtures.task("B", id: 2), Fixtures.task("C", id: 3, section: .bonus),
    ])

    private func captions(_ list: TaskList) -> [String] {
        list.priority.map(\.caption) + ["|"] + list.bonus.map(\.caption)
    }

    @Test("an add on each side keeps both, each where its side put it")
    func bothAdd() {
        var ours = base
        ours.insertOnTop(Fixtures.task("ours", id: 10, hours: 1))
        var theirs = base
        theirs.insertOnTop(Fixtures.task("theirs", id: 11, hours: 1))
        theirs.append(Fixtures.task("theirs at the end", id: 12, section: .bonus, hours: 1))
        let merged = TaskList.merge(base: base, ours: ours, theirs: theirs)
        #expect(captions(merged) == ["ours", "theirs", "A", "B", "|", "C", "theirs at the end"])
    }

    @Test("a task added after another in their list lands after it in ours")
    func addedAfterAnchor() {
        var ours = base
        ours.insertOnTop(Fixtures.task("ours", id: 10, hours: 1))
        var theirs = base
        theirs.insert(Fixtures.task("X", id: 11), at: 1)
        theirs.insert(Fixtures.task("Y", id: 12), at: 2)
        let merged = TaskList.merge(base: base, ours: ours, theirs: theirs)
        #expect(captions(merged) == ["ours", "A", "X", "Y", "B", "|", "C"])
    }

    @Test("a change on one side only wins; on both sides the newer one wins")
    func changes() {
        var ours = base
        ours.setCompleted(true, at: 0, now: Fixtures.date(hours: 5))
        var theirs = base
        var renamed = theirs[1]
        renamed.caption = "B renamed"
        renamed.modifiedAt = Fixtures.date(hours: 4)
        theirs.replace(at: 1, with: renamed)
        var merged = TaskList.merge(base: base, ours: ours, theirs: theirs)
        #expect(merged[0].completed)
        #expect(merged[1].caption == "B renamed")

        var newer = theirs[0]
        newer.caption = "A newer"
        newer.modifiedAt = Fixtures.date(hours: 9)
        theirs.replace(at: 0, with: newer)
        merged = TaskList.merge(base: base, ours: ours, theirs: theirs)
        #expect(merged[0].caption == "A newer")
        #expect(!merged[0].completed, "their version is newer as a whole")
    }

    @Test("a delete stays a delete unless the other side changed the task")
    func deletes() {
        var ours = base
        ours.remove(at: 0)  // we delete A
        var theirs = base
        theirs.remove(at: 1)  // they delete B
        #expect(captions(TaskList.merge(base: base, ours: ours, theirs: theirs)) == ["|", "C"])

        theirs = base
        theirs.setCompleted(true, at: 0, now: Fixtures.date(hours: 3))  // they complete A
        let merged = TaskList.merge(base: base, ours: ours, theirs: theirs)
        #expect(captions(merged) == ["A", "B", "|", "C"], "their change to A is not lost to our delete")
        #expect(merged[0].completed)
    }

    @Test("a task they moved to the other section goes where they put it")
    func theirMove() {
        var ours = base
        ours.insertOnTop(Fixtures.task("ours", id: 10, hours: 1))
        var theirs = base
        theirs.moveToOtherSection(at: 0, now: Fixtures.date(hours: 2))
        #expect(captions(TaskList.merge(base: base, ours: ours, theirs: theirs)) == ["ours", "B", "|", "A", "C"])
    }

    @Test("with no change on one side, the other side's list is taken as it is")
    func oneSided() {
        var theirs = base
        theirs.moveToOtherSection(at: 2, now: Fixtures.date(hours: 1))
        theirs.insertOnTop(Fixtures.task("new", id: 9))
        #expect(TaskList.merge(base: base, ours: base, theirs: theirs) == theirs)
        #expect(TaskList.merge(base: base, ours: theirs, theirs: base) == theirs)
    }

    @Test("merging a large outside import is linear, not quadratic")
    func largeImport() {
        let ours = TaskList([Fixtures.task("mine", id: 1)])
        var theirs = ours
        for number in 2...60_000 { theirs.append(Fixtures.task("T\(number)", id: number)) }
        let merged = TaskList.merge(base: TaskList(), ours: ours, theirs: theirs)
        #expect(merged.count == 60_000)
        #expect(merged[0].caption == "mine")
        #expect(merged[59_999].caption == "T60000")
    }
}
