import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// When the run loop must wake with nothing else happening (`AppUpdate.nextTimedEvent`), and
/// what it does then: never, for an idle list whose store is watched; at the second a due time
/// passes, at midnight for due dates on screen, each minute while details show relative times,
/// at the next sync, and every half second only while the store cannot be watched or a save
/// waits for the lock.
@Suite("Timed events: the loop sleeps until the next one")
struct TimedEventTests {
    /// 2026-11-18 14:00:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_010_400)

    private func idleState(_ list: TaskList = makeList(priority: ["Buy milk", "Call mum"])) -> AppState {
        var state = makeState(list)
        state.zone = ZoneInfo(identifier: "UTC")!
        _ = AppUpdate.update(&state, .started(Startup(showsDetails: false, watchesStore: true)), now: now)
        return state
    }

    @Test func anIdleListWhoseStoreIsWatchedHasNoTimedEventAtAll() {
        #expect(AppUpdate.nextTimedEvent(idleState(), now: now) == nil)
    }

    @Test func anUnwatchedStoreIsLookedAtEveryHalfSecondAndSoIsALockedOne() {
        var state = idleState()
        _ = AppUpdate.update(&state, .storeUnwatched, now: now)
        #expect(AppUpdate.nextTimedEvent(state, now: now) == state.lastOutsideLook.addingTimeInterval(0.5))
        #expect(AppUpdate.update(&state, .timerFired, now: now.addingTimeInterval(1)) == [.lookForOutsideChanges])
        var waiting = idleState()
        _ = AppUpdate.update(&waiting, .saveWaiting, now: now)
        #expect(AppUpdate.nextTimedEvent(waiting, now: now) == waiting.lastOutsideLook.addingTimeInterval(0.5))
        _ = AppUpdate.update(&waiting, .saved(Save([], what: ""), clock: Clock(milliseconds: 1), outside: []), now: now)
        #expect(AppUpdate.nextTimedEvent(waiting, now: now) == nil, "saved: asleep again")
    }

    @Test func aChangeToTheStoreIsLookedAtAtOnce() {
        var state = idleState()
        #expect(AppUpdate.update(&state, .storeChanged, now: now) == [.lookForOutsideChanges])
    }

    @Test func detailsWakeTheLoopEachMinute() {
        var state = idleState()
        state.press(.tab, .character("v"))
        let next = AppUpdate.nextTimedEvent(state, now: now.addingTimeInterval(12.5))
        #expect(next == now.addingTimeInterval(60))
    }

    @Test func aDueTimeOnScreenWakesTheLoopTheSecondItPassesAndADayAtMidnight() throws {
        var list = makeList(priority: ["Call the bank", "Buy milk"])
        let threePM = try #require(DueDate.time(wallSeconds: 1_795_010_400 + 3_600, zone: .utc))
        list.apply(try #require(list.dating(at: 0, to: threePM)), clock: .zero, force: true)
        var state = idleState(list)
        #expect(AppUpdate.nextTimedEvent(state, now: now) == now.addingTimeInterval(3_601))
        // The loop wakes then: the row turns overdue, so the frame is drawn again.
        #expect(AppUpdate.update(&state, .timerFired, now: now.addingTimeInterval(3_601)) == [.refresh])
        #expect(AppRender.render(state, size: state.size).lines[4].hasSuffix("! today 15:00"))
        // A day: the next midnight (today becomes yesterday, tomorrow today).
        var dated = makeList(priority: ["Pay rent"])
        dated.apply(try #require(dated.dating(at: 0, to: .day(20_776))), clock: .zero, force: true)
        #expect(AppUpdate.nextTimedEvent(idleState(dated), now: now) == Date(timeIntervalSince1970: 1_795_046_400))
    }

    @Test func aSyncScheduleWakesTheLoopForTheNextSync() {
        var state = idleState()
        state.syncSchedule = SyncSchedule(now: now.addingTimeInterval(40), interval: 300, firstRetry: 15)
        #expect(AppUpdate.nextTimedEvent(state, now: now) == now.addingTimeInterval(40))
        #expect(AppUpdate.update(&state, .timerFired, now: now.addingTimeInterval(40)).contains(.startSync))
        #expect(AppUpdate.nextTimedEvent(state, now: now.addingTimeInterval(41)) == nil, "while it runs, its end wakes the loop")
    }

    /// Saves run on the store thread: the stamp of an earlier save may come back after a later
    /// key changed the same field again. The later change, still on its way, stays on screen.
    @Test func aChangeStillOnItsWayStaysShownWhenAnEarlierSaveComesBack() throws {
        var state = idleState()
        state.press(.tab)
        let first = try #require(savedSave(state.press(.character(" "))))
        let second = try #require(savedSave(state.press(.character(" "))))
        #expect(state.tasks.priority[0].completed == false)
        _ = AppUpdate.update(&state, .saved(first, clock: Clock(milliseconds: 1_795_010_400_000), outside: []), now: now)
        _ = AppUpdate.update(&state, .stillUnsaved([second]), now: now)
        #expect(state.tasks.priority[0].completed == false, "the second Space is still what the screen shows")
        _ = AppUpdate.update(&state, .saved(second, clock: Clock(milliseconds: 1_795_010_400_001), outside: []), now: now)
        #expect(state.tasks.priority[0].completed == false)
    }

    private func savedSave(_ effects: [Effect]) -> Save? {
        effects.lazy.compactMap { effect -> Save? in
            if case .save(let save) = effect { return save }
            return nil
        }.first
    }
}
