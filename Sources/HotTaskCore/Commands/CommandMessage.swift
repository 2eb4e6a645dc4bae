/// What a command has to say, in the order it happened: a status line for standard output,
/// notes and warnings for standard error (said even with --quiet).
public enum CommandMessage: Equatable, Sendable {
    case status(String)
    /// Something the user should know: what a file held that HotTask did not keep, what a
    /// recovery could not keep.
    case note(String)
    /// A file beside the store that could not be read or written; the command itself went through.
    case warning(String)
}

/// A caption or a file's words, quoted in a command's message. Control characters are escaped
/// where the message is printed (`MessageText` in the command line).
func quotedCaption(_ text: String) -> String {
    "'\(text)'"
}
