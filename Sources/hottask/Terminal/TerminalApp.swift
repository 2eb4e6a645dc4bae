import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// The terminal UI's run loop: read an event, update the state, perform the effects, draw.
enum TerminalApp {
    /// `configProblems` (what the config file had that could not be used) are listed at start
    /// and by the help overlay. Returns a warning for stderr, said once the terminal is restored
    /// (the view could not be remembered).
    static func run(store: TaskStore, config: AppConfig = .standard, configProblems: [String] = []) throws -> String? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw UserFacingError(.noTerminal, "the task list UI needs a terminal; for scripts use --list, --add and the other options (see --help)")
        }
        // Read before touching the screen: a damaged store is reported, never shown as empty.
        let session = StoreSession(store: store)
        let (list, activity) = try session.openWithActivity()
        var opened: TaskList? = consume list
        let wake = try WakeChannel()
        Signals.wake(wake)
        Signals.installTerminationHandlers()
        // Before ncurses starts: it leaves a SIGTSTP handler it finds alone, and its own sets
        // SIGTSTP to "ignore" while it writes a frame (a `kill -TSTP` then was lost). Likewise
        // SIGWINCH, whose handler here wakes the loop (ncurses' only set a flag for `wgetch`).
        Signals.installStopHandler()
        Signals.installResizeHandler()
        let curses = try Curses(theme: config.theme, colors: config.colors, mouse: config.mouse)
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
        // Other processes' changes wake the loop through inotify; without it, a look every half second.
        let watch = StoreWatch(storePath: store.path)
        let startup = Startup(
            showsDetails: rememberedDetails ?? config.details, draft: restored, configProblems: configProblems,
            syncSchedule: config.sync == nil
                ? nil : SyncSchedule(now: Date(), interval: BackgroundJobs.syncInterval, firstRetry: BackgroundJobs.firstSyncRetry),
            syncOrigin: syncOrigin, watchesStore: watch != nil, activity: activity,
            blocks: StatisticsFormatter.wantsBlocks(environment: environment))
        _ = AppUpdate.update(&state, .started(startup), now: Timestamp.now())
        // The list shown when the app last quit on this store comes back.
        let listBefore = RememberedView.list(store: store.path, environment: environment)
        if listBefore != nil { AppUpdate.showList(listBefore, &state) }
        // And its folded families, those still there.
        let foldsBefore = RememberedView.folds(store: store.path, environment: environment)
        if !foldsBefore.isEmpty { AppUpdate.restoreFolds(foldsBefore, &state) }
        curses.draw(AppRender.render(state, size: state.size))
        curses.askAfterTheFirstFrame()
        _ = AppUpdate.update(&state, .frameShown, now: Timestamp.now())
        let worker = StoreWorker(session: session, store: store, wake: wake.wake)
        let jobs = BackgroundJobs(store: store, sync: config.sync, origin: syncOrigin, wake: wake.wake)
        jobs.findUnsteppable()
        var drafts = DraftKeeper(onDisk: restored) { draft in jobs.keepDraft(draft, environment: environment) }
        /// The saves handed to the store thread and not committed yet, oldest first.
        var unsaved: [Save] = []
        /// The store's folder is watched (until it is removed or moved).
        var watching = watch != nil

        // Sleep until something happens (a key, a signal, a background job's report, a change
        // to the store's files, or the next timed event), then: events → update → effects →
        // draw. The timer comes first, then what the background brought, then the keys: a key
        // acts on the list as it is.
        running: while Signals.received == 0 {
            let deadline = [AppUpdate.nextTimedEvent(state, now: Date()), drafts.deadline, curses.pendingDeadline].compactMap { $0 }.min()
            let ready = sleep(input: STDIN_FILENO, wake: wake.readEnd, watch: watch?.descriptor, until: deadline)
            if Signals.received != 0 { break }
            if ready.wake { wake.drain() }
            var fullRepaint = false
            var drawNeeded = false
            var pending: [Event] = []
            /// Gives the terminal back (normal screen, no mouse reports, no bracketed paste),
            /// stops, and on `fg` takes it again and redraws everything.
            func suspend() {
                curses.stop()
                Signals.suspendSelf()
                curses.resume()
                fullRepaint = true
                pending.insert(.resized(curses.resize()), at: 0)
            }
            if Signals.takeStopRequest() { suspend() }
            if Signals.takeResize() { pending.append(.resized(curses.resize())) }
            if worker.takeWantsList() { worker.give(state.tasks) }
            var background = worker.drain() + jobs.drain()
            if let watch, ready.watch, watch.takeChanges() {
                background.insert(.storeChanged, at: 0)
                if !watch.isWatching, watching {
                    watching = false
                    background.append(.storeUnwatched)
                }
            }
            if let deadline, Date() >= deadline { background.insert(.timerFired, at: 0) }
            var keys = ready.input ? curses.readInput() : []
            keys += curses.expirePending(now: Date())
            // The terminal said its background late: the palette changed.
            if curses.takeRepaint() { fullRepaint = true }
            pending += background + keys
            while !pending.isEmpty {
                let event = pending.removeFirst()
                if event != .timerFired { drawNeeded = true }
                var produced: [Event] = []
                // A timer is judged at the instant it was set for: `Timestamp.now()` is whole
                // seconds, and a look due at x.5 s, judged at x s, was not yet due, so the loop
                // woke again at once until the second turned (half a core on an unwatched store).
                let now = event == .timerFired ? Date() : Timestamp.now()
                for effect in AppUpdate.update(&state, event, now: now) {
                    switch perform(effect, state: state, worker: worker, jobs: jobs, unsaved: &unsaved) {
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
                // The store's version of something came in: the changes still on their way to it
                // go back on top, as it will have them once they are committed.
                switch event {
                case .saved, .saveRefused:
                    if !unsaved.isEmpty { unsaved.removeFirst() }
                    if !unsaved.isEmpty { produced.append(.stillUnsaved(unsaved)) }
                case .changedOutside, .reloaded:
                    if !unsaved.isEmpty { produced.append(.stillUnsaved(unsaved)) }
                default: break
                }
                pending.insert(contentsOf: produced, at: 0)
            }
            drafts.follow(state.draft)
            guard drawNeeded || fullRepaint else { continue }
            curses.draw(AppRender.render(state, size: state.size), fullRepaint: fullRepaint)
            _ = AppUpdate.update(&state, .frameShown, now: Timestamp.now())
        }
        var (saves, storeProblem) = worker.stop()
        return try leave(
            state, saves: &saves, storeProblem: storeProblem, jobs: jobs, store: store, environment: environment,
            detailsBefore: rememberedDetails ?? config.details, listBefore: listBefore, foldsBefore: foldsBefore,
            background: curses.backgroundToRemember)
    }

    /// What woke the loop.
    private struct Ready {
        var input = false
        var wake = false
        var watch = false
    }

    /// Sleeps until the terminal has input, the wake channel or the store's folder has news, a
    /// signal arrives, or `deadline` passes (never, when nil). One `poll` call: an idle UI makes
    /// no system calls at all.
    private static func sleep(input: Int32, wake: Int32, watch: Int32?, until deadline: Date?) -> Ready {
        var descriptors = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        if let watch { descriptors.append(pollfd(fd: watch, events: Int16(POLLIN), revents: 0)) }
        // Rounded up, so that the loop never wakes a little before the deadline only to sleep again.
        let timeout = deadline.map { Int32(clamping: max(0, Int(($0.timeIntervalSinceNow * 1000).rounded(.up)))) } ?? -1
        let count = poll(&descriptors, nfds_t(descriptors.count), timeout)
        guard count > 0 else { return Ready() }
        let readable = Int16(POLLIN | POLLHUP | POLLERR)
        return Ready(
            input: descriptors[0].revents & readable != 0, wake: descriptors[1].revents & readable != 0,
            watch: descriptors.count > 2 && descriptors[2].revents & readable != 0)
    }

    /// The way out, whatever it was (a key, SIGTERM, SIGHUP): the draft kept, changes not saved
    /// yet given a while to be, the details choice remembered; anything left unsaved goes to a
    /// rescue file and is an error (exit 3). Returns a warning for stderr.
    private static func leave(
        _ state: AppState, saves: inout SaveQueue, storeProblem: String?, jobs: BackgroundJobs, store: TaskStore,
        environment: [String: String], detailsBefore: Bool, listBefore: String?, foldsBefore: Set<UUID>,
        background: (key: String, value: String)?
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
            if saves.flush(list: state.tasks).events.contains(where: { if case .saved = $0 { true } else { false } }) { storeProblem = nil }
        }
        // The store thread has stopped (it folded the log, if it was doing so, first): the
        // changes left are saved here, not sent to a rescue file for a lock that was ours.
        flushAtExit()
        let deadline = Date().addingTimeInterval(TaskStore.lockWait)
        while !saves.isEmpty, saves.lastError == nil, Date() < deadline {
            usleep(50_000)
            flushAtExit()
        }
        // The details choice (and what the terminal said of its background) is remembered once,
        // on the way out, when it changed: not on the key, where a file write and two fsyncs
        // would hold up the screen.
        let details = state.showsDetails == detailsBefore ? nil : state.showsDetails
        let list = state.currentList == listBefore ? nil : (store: store.path, name: state.currentList ?? "")
        let folds = state.foldedTasks == foldsBefore ? nil : (store: store.path, ids: state.foldedTasks)
        let viewProblem =
            details == nil && background == nil && list == nil && folds == nil
            ? nil : RememberedView.remember(details: details, background: background, list: list, folds: folds, environment: environment)
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

    /// Performs one effect `update` asked for: a save or a look at the store (handed to the store
    /// thread), a sync, or something for the loop itself (a frame, quitting, suspending).
    private static func perform(
        _ effect: Effect, state: AppState, worker: StoreWorker, jobs: BackgroundJobs, unsaved: inout [Save]
    ) -> Performed {
        switch effect {
        case .save(let save):
            unsaved.append(save)
            worker.save(save, count: state.tasks.count)
        case .lookForOutsideChanges:
            worker.look()
        case .startSync:
            jobs.startSync()
        case .compactIfNeeded:
            // A long log is folded on the store thread: no key waits for it.
            worker.compactIfNeeded()
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
