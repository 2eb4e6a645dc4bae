import HotTaskCore

/// The lists as the app's bar shows them: made again only when the tasks changed
/// (`TaskList.revision`), from the counts the list keeps (`TaskList.listCounts`), so that
/// neither a frame nor a key costs a pass over the tasks, whatever the length of the list.
struct ListSummary: Equatable, Sendable {
    /// The revision of the list these were made from (-1: never made).
    private(set) var revision = -1
    /// Every list a person can see, in the bar's order (`TaskList.allListNames`).
    private(set) var names: [String] = []

    /// Derived from the list: two states that differ only in when it was made are equal.
    static func == (a: ListSummary, b: ListSummary) -> Bool { a.names == b.names }

    /// Made again from `list` when it changed since.
    mutating func follow(_ list: TaskList) {
        guard revision != list.revision else { return }
        revision = list.revision
        names = list.allListNames
    }
}
