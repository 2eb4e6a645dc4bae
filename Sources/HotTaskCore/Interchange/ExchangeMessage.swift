/// What an import or an export has to say, in the order it happened: a status line for
/// standard output, notes and warnings for standard error (said even with --quiet).
public enum ExchangeMessage: Equatable, Sendable {
    case status(String)
    /// Something the file held, or the format could not, that the user should know.
    case note(String)
    /// A file beside the store that could not be read or written; the tasks themselves went through.
    case warning(String)
}
