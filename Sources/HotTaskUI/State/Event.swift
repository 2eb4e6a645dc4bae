import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// Something that happened, named for what happened.
public enum Event: Equatable, Sendable {
    /// The UI is on screen with its list: what else it starts with.
    case started(Startup)
    case keyPressed(Key)
    case resized(Size)
    /// Text pasted into the terminal (bracketed paste): it goes into the line that has focus
    /// as text, never as keys. `cut`: it was longer than the decoder keeps, and the rest was
    /// dropped (the person is told).
    case pasted(String, cut: Bool = false)
    /// The mouse wheel: negative scrolls up.
    case wheelScrolled(lines: Int)
    /// The left mouse button pressed at a cell (0-based).
    case clicked(column: Int, row: Int)
    /// The store committed our changes with `clock`, after the `outside` records of other
    /// processes that we had not seen yet.
    case saved(Save, clock: Clock, outside: [LogRecord])
    /// Another process holds the store's lock: the change is kept and saved when it can be.
    case saveWaiting
    /// The background compaction could not fold the log (the changes are safe in it).
    case compactionFailed(reason: String)
    case saveFailed(reason: String)
    /// The save's condition failed in the store: nothing was written (`Save.condition`).
    case saveRefused(Save, reason: String)
    /// The store reads again after a failed look: the footer's problem is over.
    case storeRecovered
    /// Other processes committed these records.
    case changedOutside([LogRecord])
    /// The store had to be read again in full (another process wrote a new snapshot we could
    /// not follow): this is the list now, our saved changes included; with the lasting history
    /// read with it, when it was (the history view's days then follow the records folded away).
    case reloaded(TaskList, activity: ActivityHistory? = nil)
    /// A background sync ended (its changes to the list arrive as outside changes).
    case synced(SyncStatus)
    /// The synced tasks whose calendar series HotTask cannot step, with why (looked up after
    /// the first frame and after each sync): Space refuses to complete them.
    case unsteppable([UUID: String])
    /// The running sync has sent `sent` of `total` tasks.
    case syncProgress(sent: Int, total: Int)
    /// The time the run loop was asked to wake at came (`AppUpdate.nextTimedEvent`): a due
    /// date turning overdue, a sync to start, the next look while the store cannot be watched.
    case timerFired
    /// One of the store's files changed (the run loop watches its folder): another process
    /// may have changed the list.
    case storeChanged
    /// The store's folder can no longer be watched (it was removed or moved): `update` looks
    /// every half second from now on.
    case storeUnwatched
    /// Saves still on their way to the store, after the list took the store's version of
    /// something (a save's stamp, other processes' records, the whole list read again): shown
    /// again on top, as the store will have them once they are committed.
    case stillUnsaved([Save])
    /// A frame is on the terminal: work that must not delay it (folding the captions) now.
    case frameShown
    /// The editor `Effect.editNote` opened has ended, with this outcome.
    case noteEdited(NoteEditing.Outcome)
}

/// Changes to send to the store as one record.
public struct Save: Equatable, Sendable {
    public var changes: [TaskChange]
    /// What the change log calls them.
    public var what: String
    /// The record they take back (an undo).
    public var undoes: Clock?
    /// The undo step they make, to stamp with the record's clock.
    public internal(set) var stepID: Int?
    /// The undo step they take back when its save had not come back yet (so `undoes` is nil):
    /// the store thread names that step's record once it is committed.
    public internal(set) var undoesStep: Int?
    /// What must hold of the store for them to be written (the note editor's "unchanged since
    /// I opened it"), checked inside the save's transaction.
    public internal(set) var condition: SaveCondition?
    /// A file that keeps what the save writes (the note editor's), removed once it is committed.
    public internal(set) var keptFile: String?

    init(_ changes: [TaskChange], what: String, undoes: Clock? = nil, stepID: Int? = nil, undoesStep: Int? = nil) {
        self.changes = changes
        self.what = what
        self.undoes = undoes
        self.stepID = stepID
        self.undoesStep = undoes == nil ? undoesStep : nil
    }
}

/// Work for the run loop: `update` only describes it, so every key can be tested as a value.
public enum Effect: Equatable, Sendable {
    /// Commit these changes to the store now.
    case save(Save)
    case quit
    /// Give the terminal back to the shell (Ctrl-Z); `fg` resumes.
    case suspend
    /// Repaint the whole screen (Ctrl-L).
    case redraw
    /// Draw a frame although no key came (a timer changed what the screen shows).
    case refresh
    /// Look at the store for changes other processes made (and save changes that waited).
    case lookForOutsideChanges
    /// Start a sync with `[sync]` in the background; it ends with `Event.synced`.
    case startSync
    /// Fold the change log into a new snapshot in the background, if it is long.
    case compactIfNeeded
    /// Open a task's note in the person's editor, the terminal given to it meanwhile; it ends
    /// with `Event.noteEdited`.
    case editNote(NoteEditing.Request)
}

/// What the UI starts with beside its list, gathered by the run loop (files, the environment)
/// and taken into the state by `update`: whether details show, the text typed before the last
/// quit, what the config file had that could not be used, and the sync's schedule when sync is
/// set up.
public struct Startup: Equatable, Sendable {
    var showsDetails: Bool
    var draft: Draft?
    /// What the config file had that could not be used, one line each (file name, line, why,
    /// what was done about it): said at start, and listed by the help overlay.
    var configProblems: [String]
    var syncSchedule: SyncSchedule?
    /// What the syncs this UI runs name their records by (`LogRecord.by`).
    var syncOrigin: String?
    /// The run loop is told when the store's files change (`Event.storeChanged`); without
    /// that, `update` looks every half second.
    var watchesStore: Bool
    /// The store's lasting history of adds and completions, as the first read found it.
    var activity: ActivityHistory
    /// The terminal draws block characters (a UTF-8 character set, NO_COLOR unset).
    var blocks: Bool

    public init(
        showsDetails: Bool, draft: Draft? = nil, configProblems: [String] = [], syncSchedule: SyncSchedule? = nil,
        syncOrigin: String? = nil, watchesStore: Bool = false, activity: ActivityHistory = ActivityHistory(), blocks: Bool = true
    ) {
        self.activity = activity
        self.blocks = blocks
        self.showsDetails = showsDetails
        self.draft = draft
        self.configProblems = configProblems
        self.syncSchedule = syncSchedule
        self.syncOrigin = syncOrigin
        self.watchesStore = watchesStore
    }
}
