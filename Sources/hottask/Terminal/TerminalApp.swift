import HotTaskCore

/// The terminal UI (placeholder until the front end lands).
enum TerminalApp {
    static func run(store: TaskStore) throws {
        throw TerminalUnavailable(message: "the terminal UI is not built yet; see --help for the command-line options")
    }
}
