import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings

/// Which part of the screen the keys go to.
public enum Focus: Equatable, Sendable {
    /// The new-task input.
    case input
    case list
    /// The filter line in the view bar.
    case filter
    /// The selected task's caption, edited in place.
    case editing
    /// The selected task's due date, typed in a small prompt on its row.
    case due
    /// The selected task's repeat rule, typed in a prompt on its row.
    case repeating
    /// The prompt that moves the selected task to another list.
    case listing
    /// The history view (`HistoryChart`) over the whole screen.
    case history
    /// The month calendar of due dates (`DueCalendar`) over the whole screen.
    case calendar
}

/// A question in the footer that the next key answers (y or anything else).
enum Confirmation: Equatable, Sendable {
    case clearCompleted(count: Int)
}

/// A click on a task, for telling a double-click (`AppUpdate.doubleClickWindow`).
struct LastClick: Equatable, Sendable {
    var taskID: UUID
    var row: Int
    var at: Date
}

/// Where the person was when the filter opened, so that Esc can put them back.
struct FilterOrigin: Equatable, Sendable {
    var focus: Focus
    var selectedTaskID: UUID?
    var scrollOffset: Int
}

/// A line for the footer until the next key.
struct Message: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case info, warning, error }
    var text: String
    var kind: Kind
    /// Shorter ways to say it, longest first: the footer shows the first that fits, so that
    /// a narrow screen gets a whole sentence rather than a cut one.
    var shorter: [String]

    init(_ text: String, kind: Kind = .info, shorter: [String] = []) {
        self.text = text
        self.kind = kind
        self.shorter = shorter
    }

    /// The longest wording that fits `width` columns (the shortest, cut, when none does).
    func fitting(_ width: Int) -> String {
        let wordings = [text] + shorter
        return wordings.first { DisplayWidth.of($0) <= width } ?? wordings[wordings.count - 1].truncated(toWidth: width)
    }
}

/// How the last background sync went, for the footer's right side.
public struct SyncStatus: Equatable, Sendable {
    /// "synced 14:05" or "sync failed 14:05".
    var summary: String
    /// Why it failed; nil when it worked. While one runs, why the one before failed.
    var failure: String?
    /// The whole reason, when `failure` is its one-line form (for the help overlay).
    var detail: String?
    /// A sync is running now ("syncing…").
    var running: Bool

    public init(summary: String, failure: String? = nil, detail: String? = nil, running: Bool = false) {
        self.summary = summary
        self.failure = failure
        self.detail = detail
        self.running = running
    }
}

/// Everything the screen shows. `update` changes it; `render` draws it.
public struct AppState: Equatable, Sendable {
    public var tasks: TaskList
    public var input = LineEditor()
    public var focus = Focus.input
    /// Sort, "completed last" and filter: which tasks are shown, in which order.
    public var view = ListView()
    /// The filter text being typed; its own editor, so the new-task input keeps its text.
    var filter = LineEditor()
    /// Set while a filter is open or kept; nil otherwise.
    var filterOrigin: FilterOrigin?
    /// The caption being edited in place (focus `.editing`).
    public var editor = LineEditor()
    /// The last text Ctrl-K, Ctrl-U, Ctrl-W, Alt-Backspace or Alt-d cut, for Ctrl-Y.
    var killed = ""
    /// The task being edited: found again by id on Enter, since another program may have
    /// moved or deleted it meanwhile.
    var editingTaskID: UUID?
    /// Where the keys go when the open prompt (a caption edit, a due date) ends, by Enter or
    /// Esc: the focus it was opened from, so that F2 in the input row and Esc leave the keys in
    /// the input row, never in the list where letters are commands.
    var promptOrigin = Focus.list
    var history = UndoHistory()
    var confirmation: Confirmation?
    /// The focus whose keys the help overlay shows, while it is open.
    var help: Focus?
    /// The help's first row on screen, when it is taller than the screen.
    var helpScroll = 0
    /// The selected task's display position in the view (meaningless while nothing is shown).
    var selection = 0
    /// The first list row on screen.
    var scrollOffset = 0
    var message: Message?
    /// Synced tasks whose calendar series HotTask cannot step, with why (`Event.unsteppable`).
    var unsteppable: [UUID: String] = [:]
    /// What the config file had that could not be used: listed over the list at start until the
    /// next key (`showsConfigProblems`), and by the help overlay for as long as the app runs.
    var configProblems: [String] = []
    var showsConfigProblems = false
    /// Why the last save failed; shown until a save succeeds.
    var saveError: String?
    /// True while another process holds the store's lock and a change waits to be saved.
    var saveWaiting = false
    /// The last background sync (nil when `[sync]` is not configured or none ran yet).
    var syncStatus: SyncStatus?
    /// When to sync (nil when `[sync]` is not configured).
    var syncSchedule: SyncSchedule?
    /// What the syncs this UI runs name their records by: only those are offered for undo.
    var syncOrigin: String?
    /// When the store was last looked at for other processes' changes.
    var lastOutsideLook = Date.distantPast
    /// The run loop says when the store's files change; false: look every half second.
    var watchesStore = false
    /// The last timer event, so that what the time changes on screen is redrawn once it did.
    var lastTimeCheck = Date.distantPast
    /// The last click on a task's caption, so that a second one there soon after edits it.
    var lastClick: LastClick?
    public var size: Size
    /// The list's keys (from the config file, or the standard ones).
    var bindings: KeyBindings
    /// Where Enter puts a new task (the config's `default_section`).
    var newTaskSection: Section
    /// The task the input row adds subtasks under (`o`), until the input is left.
    var addingUnder: UUID?
    /// Each task with a second, dimmer line saying when it was added and completed (`v`).
    public var showsDetails: Bool
    /// The time of the last event, for "added 3 days ago", and the zone that says what
    /// "today" is.
    var now = Date(timeIntervalSince1970: 0)
    var zone = ZoneInfo.current
    /// How due dates that are not near are written (the config's `date_format`).
    var dateFormat = DueDisplay.Format.iso
    /// Whether `+word` in a new task's text (and in the caption editor) is a tag (`plus_tags`).
    var plusTags = true
    /// The text an editor that failed left, for the next `n` on that task.
    var keptNote: NoteEditing.Kept?
    /// What the last key's Tab completion offered (any other key drops it): Tab again cycles.
    var tabCycle: TagCompletion.Cycle?
    /// The list shown, by name; nil shows every list (the only view of a one-list store).
    public internal(set) var currentList: String?
    /// The lists' names (made again only when the tasks change).
    var listSummary = ListSummary()
    /// What was added and completed when, kept for good: the store's, with each record since
    /// counted in as it comes (`UpdateViews`).
    var activity = ActivityHistory()
    /// Block characters for the views' bars and heat map; ASCII when the terminal's character
    /// set is not UTF-8 or NO_COLOR is set (as `--stats` decides).
    var blocks = true
    /// The history view's numbers, made when it opens (focus `.history`).
    var chart: HistoryChart?
    /// The calendar of due dates, made when it opens (focus `.calendar`).
    var dueCalendar: DueCalendar?
    /// More than one list to show: the bar, the list keys in the help, each task's list under "All".
    var hasSeveralLists: Bool { listSummary.names.count > 1 }

    /// Due dates as of `now`, in the local zone.
    var dates: DueDisplay { DueDisplay(now: now, local: zone, format: dateFormat) }

    public init(tasks: TaskList, size: Size, config: AppConfig = .standard) {
        self.tasks = tasks
        self.size = size
        self.bindings = config.bindings
        self.newTaskSection = config.defaultSection
        self.showsDetails = config.details
        self.dateFormat = config.dateFormat
        self.plusTags = config.plusTags
        view.prepareFilter()
        view.countSubtasks(tasks)
    }

    var layout: ListLayout { ListLayout(view, of: tasks, details: showsDetails) }
    var screen: ScreenLayout { ScreenLayout(size) }

    /// The tasks whose subtasks are folded, those that still have subtasks (to remember).
    public var foldedTasks: Set<UUID> { view.folds.folded.intersection(view.folds.parents) }

    /// The selected task's position in the list, if a task is shown.
    var selectedPosition: Int? {
        let shown = view.count(of: tasks)
        return shown == 0 ? nil : view.position(ofDisplay: min(max(selection, 0), shown - 1), in: tasks)
    }

    /// The selected task, if there is one.
    var selectedTask: TaskItem? {
        selectedPosition.map { tasks[$0] }
    }
}

/// Where each part of the screen goes at a given size.
struct ScreenLayout: Equatable, Sendable {
    static let minimum = Size(width: 24, height: 6)

    let size: Size
    init(_ size: Size) { self.size = size }

    var isTooSmall: Bool {
        size.width < Self.minimum.width || size.height < Self.minimum.height
    }

    let titleRow = 0
    let inputRow = 1
    let ruleRow = 2
    let listTop = 3
    var footerRow: Int { size.height - 1 }
    /// Rows for the list, at least one so that arithmetic stays sane when the screen is tiny.
    var listHeight: Int { max(1, size.height - 4) }
}
