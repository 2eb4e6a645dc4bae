import FoundationEssentials
import Glibc

/// Every limit of the store, in one table, each derived so that a store at every limit still
/// reads and writes: what a writer may commit is never more than a reader takes.
///
/// - A store holds at most `tasks` live tasks, and its snapshot at most `snapshotBytes`. A
///   change that would grow the store past either is refused before it is acknowledged;
///   changes that do not grow it (done, delete, move, a shorter caption) are always taken, so
///   that a full store can be emptied.
/// - At `tasks` tasks, each caption can have its full `CaptionRule.maximumLength` characters
///   (`fullStoreBytes`): `StoreLimitsTests` writes and reads such a store. Notes take what
///   room is left under `snapshotBytes`, and so do tags: each commit counts what its notes and tags add
///   (`TaskChange.storeGrowth`), so a note that would grow the store past it is refused as a
///   task past it is. A note is at most `noteBytes`, which one log record holds easily.
/// - Readers take `readBytes`: the snapshot's limit and the room one last change may add.
/// - The log is read whole, up to `logBytes`; the UI folds it past `uiFoldsLogPastBytes`, so
///   that with its largest record on top it stays readable.
public enum StoreLimits {
    /// Live tasks in one store.
    public static let tasks = 250_000
    /// The snapshot's size (and so the store's).
    public static let snapshotBytes = 512 << 20
    /// What a snapshot, a backup, an import file or a file beside the store may be when read:
    /// the snapshot's limit and 64 MB for what deletes add (each tombstone is its task and a stamp).
    public static let readBytes = snapshotBytes + (64 << 20)
    /// The change log, read whole by every command.
    public static let logBytes = 64 << 20
    /// A command's record larger than this goes straight into a new snapshot.
    static let commandRecordInLog = 1 << 20
    /// The UI's records up to this size go to the log (a clear of 30,000 tasks is 9 MB).
    static let uiRecordInLog = 16 << 20
    /// The UI folds the log itself past this size.
    static let uiFoldsLogPastBytes = 32 << 20
    /// A writer folds the log into the snapshot past this size, whatever its record count.
    static let logFoldBytes = 4 << 20
    /// A note's UTF-8 bytes (`NoteRule`): 16 KB, about 300 lines of text. Written escaped in
    /// JSON, at most twice that (a line break is two bytes there).
    public static let noteBytes = 16 << 10
    /// Tags on one task, and the characters of one (`TagRule`).
    public static let tagsPerTask = 32
    public static let tagCharacters = 64

    /// The snapshot of a full store: `tasks` tasks, each with a caption of the longest length
    /// allowed (ASCII) and every field set, as the store writes them.
    static var fullStoreBytes: Int {
        let caption = String(repeating: "x", count: CaptionRule.maximumLength)
        let task = TaskItem(
            id: UUID(), caption: caption, completed: true, createdAt: Date(), completedAt: Date(), modifiedAt: Date(),
            order: OrderKey.sequence(1)[0], due: DueDate(text: "2026-12-01T09:30", zone: "Europe/Berlin"))
        var writer = JSONWriter(capacity: 4096)
        StoreDocument.write(task, to: &writer, compact: false)
        // Each task's object, its indentation and separator, and the header.
        return tasks * (writer.count + 16) + 4096
    }
}
