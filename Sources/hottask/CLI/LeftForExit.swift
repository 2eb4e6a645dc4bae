import HotTaskCore

/// What a command that only reads has read is left for the process's exit to free at once:
/// released task by task (each caption and box in turn), a 100,000-task list took 6-8 ms
/// after the output was done, a fortieth of an export.
enum LeftForExit {
    // Touched only on the main thread, by the command, before it exits.
    nonisolated(unsafe) private static var held: TaskList?

    /// Holds `list` until the process exits, or until `drop`.
    static func hold(_ list: TaskList) {
        held = list
    }

    /// Lets the held list go now: a second command of the same run reads its own, and two
    /// lists were never held at once before.
    static func drop() {
        held = nil
    }
}
