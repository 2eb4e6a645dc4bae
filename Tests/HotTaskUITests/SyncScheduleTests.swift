import Foundation
import Testing

@testable import HotTaskUI

/// When the UI syncs, decided in `update` on each timer event (no thread, no clock inside).
@Suite("The UI's sync schedule")
struct SyncScheduleTests {
    private let start = Date(timeIntervalSince1970: 1_795_000_000)

    private func fired(_ state: inout AppState, at seconds: TimeInterval) -> [Effect] {
        AppUpdate.update(&state, .timerFired, now: start.addingTimeInterval(seconds))
    }

    private func syncing() -> AppState {
        var state = makeState()
        state.syncSchedule = SyncSchedule(now: start, interval: 300, firstRetry: 15)
        return state
    }

    @Test func itSyncsAtStartThenAtTheIntervalAndNeverTwiceAtOnce() {
        var state = syncing()
        #expect(fired(&state, at: 0).contains(.startSync))
        #expect(state.syncStatus?.summary == "syncing…")
        #expect(!fired(&state, at: 400).contains(.startSync), "one sync at a time")
        _ = AppUpdate.update(&state, .synced(SyncStatus(summary: "synced 10:00")), now: start.addingTimeInterval(401))
        #expect(!fired(&state, at: 299).contains(.startSync))
        #expect(fired(&state, at: 300).contains(.startSync), "the interval counts from the last start")
    }

    @Test func aChangeSavedHereSyncsThreeSecondsLater() {
        var state = syncing()
        _ = fired(&state, at: 0)
        _ = AppUpdate.update(&state, .synced(SyncStatus(summary: "synced")), now: start.addingTimeInterval(1))
        _ = AppUpdate.update(&state, .saved(Save([], what: "Added"), clock: .zero, outside: []), now: start.addingTimeInterval(10))
        #expect(!fired(&state, at: 12.9).contains(.startSync))
        #expect(fired(&state, at: 13).contains(.startSync))
    }

    @Test func failuresAreTriedAgainAfter15Then30Then60SecondsUpToTheInterval() {
        var state = syncing()
        var now: TimeInterval = 0
        var waits: [TimeInterval] = []
        #expect(fired(&state, at: now).contains(.startSync))
        for _ in 0..<6 {
            _ = AppUpdate.update(&state, .synced(SyncStatus(summary: "sync failed", failure: "down")), now: start.addingTimeInterval(now))
            let failedAt = now
            repeat { now += 1 } while !fired(&state, at: now).contains(.startSync)
            waits.append(now - failedAt)
        }
        #expect(waits == [15, 30, 60, 120, 240, 300])
        #expect(state.message?.text == "Sync failed: down", "said once, not at every retry")
    }

    @Test func theStoreIsLookedAtEveryHalfSecond() {
        var state = makeState()
        #expect(fired(&state, at: 0).contains(.lookForOutsideChanges))
        #expect(!fired(&state, at: 0.25).contains(.lookForOutsideChanges))
        #expect(fired(&state, at: 0.5).contains(.lookForOutsideChanges))
        #expect(!fired(&state, at: 0.6).contains(.startSync), "no [sync], no sync")
    }
}
