import Foundation
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// The terminal UI's run loop: read an event, update the state, perform the effects, draw.
enum TerminalApp {
    /// `configWarning` (a config file that could not be used) is shown in the footer at start.
    /// Returns a warning for stderr, said once the terminal is restored (the view could not be
    /// remembered).
    static func run(store: TaskStore, config: AppConfig = .standard, configWarning: String? = nil) throws -> String? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw UserFacingError(.noTerminal, "the task list UI needs a terminal; for scripts use --list, --add and the other options (see --help)")
        }
        // Read before touching the screen: a damaged store is reported, never shown as empty.
        let session = StoreSession(store: store)
        var opened: TaskList? = try session.open()
        Signals.installTerminationHandlers()
        // Before ncurses starts: it leaves a SIGTSTP handler it finds alone, and its own sets
        // SIGTSTP to "ignore" while it writes a frame (a `kill -TSTP` then was lost).
        Signals.installStopHandler()
        let curses = try Curses(theme: config.theme, mouse: config.mouse)
        defer { curses.stop() }
        let environment = ProcessInfo.processInfo.environment
        // Taken, not copied: the state is the list's only holder, so its first change (a clear of
        // 30,000 tasks) does not copy all of it.
        var state = AppState(tasks: opened.take() ?? TaskList(), size: curses.size, config: config)
        let rememberedDetails = RememberedView.details(environment: environment)
        // Text typed before the last quit, back where it was.
        let restored = DraftFile.load(store: store.path, environment: environment)
        // Names this UI's syncs in the log, so that `u` offers only those (never another terminal's).
        let syncOrigin = "ui-\(getpid())-\(UInt32.random(in: .min ... .max))"
        let startup = Startup(
            showsDetails: rememberedDetails ?? config.details, draft: restored, configWarning: configWarning,
            syncSchedule: config.sync == nil
                ? nil : SyncSchedule(now: Date(), interval: BackgroundJobs.syncInterval, firstRetry: BackgroundJobs.firstSyncRetry),
            syncOrigin: syncOrigin)
        _ = AppUpdate.update(&state, .started(startup), now: Timestamp.now())
        curses.draw(AppRender.render(state, size: state.size))
        _ = AppUpdate.update(&state, .frameShown, now: Timestamp.now())
        /// Why the store could not be read at the last look, in full (nil once it can again).
        var storeProblem: String?
        var saves = SaveQueue(session: session)
        let jobs = BackgroundJobs(store: store, sync: config.sync, origin: syncOrigin)
        var drafts = DraftKeeper(onDisk: restored) { draft in jobs.keepDraft(draft, environment: environment) }

        // Next events → update → perform the effects → draw. The timer comes first, and what
        // an effect brings (a save's outcome, other processes' changes) is handled before the
        // next event: a key acts on the list as it is.
        running: while Signals.received == 0 {
            let keys = curses.nextEvents()  // wakes at least every 250 ms
            var fullRepaint = false
            var drawNeeded = false
            var pending: [Event] = [.timerFired] + jobs.drain() + keys
            /// Gives the terminal back (normal screen, no mouse reports, no bracketed paste),
            /// stops, and on `fg` takes it again and redraws everything.
            func suspend() {
                curses.stop()
                Signals.suspendSelf()
                curses.resume()
                fullRepaint = true
                pending.insert(.resized(curses.size), at: 0)
            }
            if Signals.takeStopRequest() { suspend() }
            while !pending.isEmpty {
                let event = pending.removeFirst()
                if event != .timerFired { drawNeeded = true }
                if case .saved = event { storeProblem = nil }  // a commit read the store and wrote it
                var produced: [Event] = []
                for effect in AppUpdate.update(&state, event, now: Timestamp.now()) {
                    switch perform(effect, tasks: state.tasks, saves: &saves, session: session, jobs: jobs, storeProblem: &storeProblem) {
                    case .events(let events): produced += events
                    case .draw(let full):
                        drawNeeded = true
                        fullRepaint = fullRepaint || full
                    case .quit: break running
                    case .suspend: suspend()
                    case .editNote(let request):
                        // The editor has the terminal meanwhile, as after Ctrl-Z; then all is drawn again.
                        curses.stop()
                        let outcome = NoteEditor.edit(request, environment: environment)
                        curses.resume()
                        fullRepaint = true
                        produced += [.resized(curses.size), .noteEdited(outcome)]
                    }
                }
                pending.insert(contentsOf: produced, at: 0)
            }
            drafts.follow(state.draft)
            guard drawNeeded || fullRepaint else { continue }
            curses.draw(AppRender.render(state, size: state.size), fullRepaint: fullRepaint)
            _ = AppUpdate.update(&state, .frameShown, now: Timestamp.now())
        }
        return try leave(
            state, saves: &saves, storeProblem: storeProblem, jobs: jobs, store: store, environment: environment,
            detailsBefore: rememberedDetails ?? config.details)
    }

    /// The way out, whatever it was (a key, SIGTERM, SIGHUP): the draft kept, changes not saved
    /// yet given a while to be, the details choice remembered; anything left unsaved goes to a
    /// rescue file and is an error (exit 3). Returns a warning for stderr.
    private static func leave(
        _ state: AppState, saves: inout SaveQueue, storeProblem: String?, jobs: BackgroundJobs, store: TaskStore,
        environment: [String: String], detailsBefore: Bool
    ) throws -> String? {
        var storeProblem = storeProblem
        // Text typed and not added is kept first, after any write of an earlier draft still
        // under way (it must not land after this one).
        jobs.waitForDraft()
        let draftProblem = DraftFile.keep(state.draft, store: store.path, environment: environment)
        // Leaving with changes not saved yet: wait a while for a lock another process holds
        // (not for a store that failed: waiting would not mend it). If anything is left
        // unsaved, or the store could not be read at the last look, every task the UI holds
        // goes to a rescue file beside the store; said on stderr once the terminal is
        // restored (by `run`'s defer), exit 3. Never a silent exit, never tasks lost.
        func flushAtExit() {
            if saves.flush(current: state.tasks).contains(where: { if case .saved = $0 { true } else { false } }) { storeProblem = nil }
        }
        // Our own compaction holds the lock while it runs: wait for it first, so that the
        // changes left are saved, not sent to a rescue file for a lock that was ours.
        jobs.waitForCompaction()
        flushAtExit()
        let deadline = Date().addingTimeInterval(TaskStore.lockWait)
        while !saves.isEmpty, saves.lastError == nil, Date() < deadline {
            usleep(50_000)
            flushAtExit()
        }
        // The details choice is remembered once, on the way out, when it changed: not on the
        // key, where a file write and two fsyncs would hold up the screen.
        let viewProblem =
            state.showsDetails == detailsBefore
            ? nil : RememberedView.remember(details: state.showsDetails, environment: environment)
        // `storeProblem`, not the footer's text: a store that read again since needs no rescue.
        if !saves.isEmpty || storeProblem != nil {
            let reason = saves.lastError ?? storeProblem ?? "another process held the store's lock"
            let what = saves.isEmpty ? "quit while the store could not be read" : "quit with changes that could not be saved (\(saves.count))"
            let rescue = Rescue.write(state.tasks, besides: store.path)
            throw UserFacingError(.storeUnwritable, "\(what): \(reason); " + rescue + (draftProblem.map { "; " + $0 } ?? ""))
        }
        return [draftProblem, viewProblem].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
    }

    /// What performing an effect asks of the run loop.
    private enum Performed {
        case events([Event])
        case draw(fullRepaint: Bool)
        case quit
        case suspend
        case editNote(NoteEditing.Request)
    }

    /// Performs one effect `update` asked for: a save, a look at the store, a background job,
    /// or something for the loop itself (a frame, quitting, suspending).
    private static func perform(
        _ effect: Effect, tasks: TaskList, saves: inout SaveQueue, session: StoreSession, jobs: BackgroundJobs,
        storeProblem: inout String?
    ) -> Performed {
        switch effect {
        case .save(let save):
            saves.append(save)
            return .events(saves.flush(current: tasks))
        case .lookForOutsideChanges:
            // Changes that waited for the lock first, then other processes' changes.
            let saved = saves.flush(current: tasks)
            return .events(saves.isEmpty ? saved + outsideChanges(session, problem: &storeProblem) : saved)
        case .startSync:
            jobs.startSync()
        case .compactIfNeeded:
            // A long log is folded on another thread: no key waits for it.
            if saves.isEmpty { jobs.compactIfNeeded() }
        case .refresh:
            return .draw(fullRepaint: false)
        case .quit:
            return .quit
        case .suspend:
            return .suspend
        case .editNote(let request):
            return .editNote(request)
        case .redraw:
            return .draw(fullRepaint: true)
        }
        return .events([])
    }

    private static func outsideChanges(_ session: StoreSession, problem: inout String?) -> [Event] {
        do {
            let outside = try session.poll()
            let recovered: [Event] = problem != nil ? [.storeRecovered] : []
            problem = nil
            switch outside {
            case nil: return recovered
            case .records(let records)?: return recovered + [.changedOutside(records)]
            case .reloaded(let list)?: return recovered + [.reloaded(list)]
            }
        } catch {
            problem = fullReason(error)
            return [.saveFailed(reason: reason(error))]
        }
    }

    /// Why a save failed, for the footer: short enough for one 80-column line beside the
    /// position, and saying what to do.
    static func reason(_ error: StoreError) -> String {
        if let reason = error.writeFailure { return reason }
        let name = error.path.split(separator: "/").last.map(String.init) ?? "the store"
        return "\(name) is damaged: ^C saves your tasks to a rescue file"
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension TerminalApp {
    /// Why a save failed, in full (for stderr, where there is room).
    static func fullReason(_ error: StoreError) -> String {
        error.writeFailure ?? error.description
    }
}
