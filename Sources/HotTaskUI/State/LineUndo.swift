/// What Ctrl-_ takes back in a line editor: the line as it was before each edit, newest last.
///
/// Typing is one step per word and a run of single-character deletes one step, as readline
/// groups them, so that undo does not crawl back a character at a time. A cursor move ends a
/// run.
struct LineUndo: Equatable, Sendable {
    struct Snapshot: Equatable, Sendable {
        var characters: [Character]
        var cursor: Int
    }

    /// The kind of the last edit, which decides whether the next one starts a new step and
    /// whether a kill adds to the one before it (Ctrl-W Ctrl-W yanks back both words).
    enum Edit: Equatable, Sendable {
        case typing, deleting, killBackward, killForward, other
    }

    private(set) var snapshots: [Snapshot] = []
    /// nil after a cursor move, an undo, or at the start.
    var last: Edit?
    private var heldCharacters = 0

    /// Steps kept, and the characters all of them may hold (a 64K-character paste undone and
    /// redone must not keep a hundred copies of itself).
    static let maximumSteps = 200
    static let maximumCharacters = 256 * 1024

    init() {}

    mutating func push(_ characters: [Character], cursor: Int) {
        snapshots.append(Snapshot(characters: characters, cursor: cursor))
        heldCharacters += characters.count
        while snapshots.count > 1, snapshots.count > Self.maximumSteps || heldCharacters > Self.maximumCharacters {
            heldCharacters -= snapshots.removeFirst().characters.count
        }
    }

    mutating func pop() -> Snapshot? {
        guard let snapshot = snapshots.popLast() else { return nil }
        heldCharacters -= snapshot.characters.count
        last = nil
        return snapshot
    }
}
