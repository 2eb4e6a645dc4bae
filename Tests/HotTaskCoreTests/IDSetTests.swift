import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// `IDSet`, the app's set of ids for whole-list passes: a set's answers, whatever the order.
@Suite("IDSet")
struct IDSetTests {
    private let ids = (0..<5_000).map { Fixtures.id($0) }

    @Test("it holds what was inserted once, in the order given, and nothing else")
    func holdsWhatWasInserted() {
        var set = IDSet()
        #expect(set.isEmpty)
        var fresh = 0
        for id in ids where set.insert(id) { fresh += 1 }
        #expect(fresh == ids.count)
        let again = set.insert(ids[17])
        #expect(!again, "a second insert is refused")
        #expect(set.count == ids.count)
        #expect(Array(set.ids) == ids)
        #expect(ids.allSatisfy(set.contains))
        #expect(!set.contains(UUID()))
    }

    @Test("two sets of the same ids are equal in any order; one more or other ids are not")
    func equalityIgnoresOrder() {
        var forward = IDSet(minimumCapacity: ids.count)
        var backward = IDSet()
        for id in ids { forward.insert(id) }
        for id in ids.reversed() { backward.insert(id) }
        #expect(forward == backward)
        var more = backward
        more.insert(UUID())
        #expect(forward != more)
        var other = IDSet(arrayLiteral: ids[0], ids[1])
        #expect(other != [ids[0], ids[2]])
        other.insert(ids[2])
        #expect(other == [ids[2], ids[1], ids[0]])
    }
}
