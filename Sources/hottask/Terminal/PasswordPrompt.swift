import FoundationEssentials
import Glibc

/// Asks for a password at the terminal, without echo, for `--sync-setup` without a
/// `--password-command`: it is used for the set-up only and never written anywhere.
enum PasswordPrompt {
    /// Nil when there is no terminal to ask at (stdin is not one), or it could not be read.
    static func ask(_ question: String) -> String? {
        guard isatty(0) == 1 else { return nil }
        let tty = open("/dev/tty", O_RDWR)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        // Echo off before the question shows: what is typed after it must neither echo nor be
        // flushed away by the change. It comes back even when the read is cut short.
        tcsetattr(tty, TCSAFLUSH, &quiet)
        defer { tcsetattr(tty, TCSADRAIN, &saved) }
        _ = question.withCString { write(tty, $0, strlen($0)) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { bytes.append(byte) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
