import TestSupport
import Testing

/// The command line's whole outputs, kept as transcripts in `Snapshots/`: the help, the list in
/// each of its orders, and every error message a command can give without a server (sync's are
/// in the sync suites, against real servers). Each transcript runs in a fresh home of its own
/// (`TranscriptSession`); `HOTTASK_RECORD_SNAPSHOTS=1` writes them again.
@Suite("Whole outputs kept as snapshot files")
struct OutputSnapshotTests {
    @Test("--help and --version") func help() {
        expectTranscript(named: "help.console")
    }

    @Test("--list, --list --sort due, --overdue and --filter of a list with due dates") func list() {
        expectTranscript(named: "list.console")
    }

    @Test("every error message, with its exit status") func errors() {
        expectTranscript(named: "errors.console")
    }
}
