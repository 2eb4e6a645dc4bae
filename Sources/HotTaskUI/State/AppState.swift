import HotTaskCore

/// Which part of the screen the keys go to.
public enum Focus: Equatable, Sendable {
    case input
    case list
}

/// A line for the footer until the next key.
public struct Message: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case info, warning, error }
    public var text: String
    public var kind: Kind

    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }
}

/// Everything the screen shows. `update` changes it; `render` draws it.
public struct AppState: Equatable, Sendable {
    public var tasks: TaskList
    public var input = LineEditor()
    public var focus = Focus.input
    /// The selected task's display position (meaningless while the list is empty).
    public var selection = 0
    /// The first list row on screen.
    public var scrollOffset = 0
    public var message: Message?
    /// Why the last save failed; shown until a save succeeds.
    public var saveError: String?
    public var size: Size

    public init(tasks: TaskList, size: Size) {
        self.tasks = tasks
        self.size = size
    }

    public var layout: ListLayout { ListLayout(tasks) }
    public var screen: ScreenLayout { ScreenLayout(size) }

    /// The selected task, if there is one.
    public var selectedTask: TaskItem? {
        tasks.isEmpty ? nil : tasks[min(selection, tasks.count - 1)]
    }
}

/// Where each part of the screen goes at a given size.
public struct ScreenLayout: Equatable, Sendable {
    public static let minimum = Size(width: 24, height: 6)

    public let size: Size
    public init(_ size: Size) { self.size = size }

    public var isTooSmall: Bool {
        size.width < Self.minimum.width || size.height < Self.minimum.height
    }

    public let titleRow = 0
    public let inputRow = 1
    public let ruleRow = 2
    public let listTop = 3
    public var footerRow: Int { size.height - 1 }
    /// Rows for the list, at least one so that arithmetic stays sane when the screen is tiny.
    public var listHeight: Int { max(1, size.height - 4) }
}
