import FoundationEssentials
import Glibc
import HotTaskCore

/// Where a command's words go.
///
/// Data (the list, a JSON document, an export to `-`) goes to stdout. What a command did
/// ("Added…", "Imported…") goes to stdout too, unless the command was asked for data: then it
/// goes to stderr, so that `hottask --add X --list --json | jq` sees only JSON. `--quiet` drops
/// those lines. Warnings and errors always go to stderr.
///
/// A failed write to stdout is remembered and ends the command with an error (a full disk
/// must not look like a backup); a closed pipe (`| head`) ends writing quietly, as it does
/// for other Unix tools.
final class CommandOutput {
    /// Whether stdout carries data, so status lines go to stderr.
    var dataOnStdout = false
    var quiet = false
    /// Why stdout could not be written, once it could not.
    private(set) var failure: String?
    private var pipeClosed = false

    /// A line saying what the command did.
    func status(_ line: String) {
        guard !quiet else { return }
        let text = MessageText.escaped(line) + "\n"
        if dataOnStdout { Self.writeStandardError(text) } else { self.text(text) }
    }

    func text(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// One `write` per piece: `print` per line costs more than building the whole text of a
    /// 100,000-task list.
    private func write(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, !pipeClosed else { return }
        do throws(Descriptor.WriteFailure) {
            try Descriptor.write(UnsafeRawBufferPointer(buffer), to: STDOUT_FILENO)
        } catch {
            if error.code == EPIPE { pipeClosed = true } else { failure = error.reason }
        }
    }

    /// Nothing more can be said when stderr itself fails.
    static func writeStandardError(_ text: String) {
        try? Descriptor.write(text, to: STDERR_FILENO)
    }

    /// A closed stdin, stdout or stderr (`hottask --list >&-`) would let the next file opened,
    /// maybe the store, take its number, and output meant for the terminal would go into it.
    /// Each closed one is given /dev/null opened the wrong way round, so that using it fails
    /// (EBADF) and says so instead of writing anywhere.
    static func guardStandardDescriptors() {
        for (descriptor, flags) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)] {
            guard fcntl(descriptor, F_GETFD) < 0, errno == EBADF else { continue }
            let opened = open("/dev/null", flags)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}

/// Text from files and arguments made safe to print: control characters (an escape sequence in
/// an import file's id could clear the screen or write the clipboard) are shown as `\u001B`.
/// `TerminalText` does it, for hottask-sync's messages too.
enum MessageText {
    /// `keepingLineBreaks`: for the multi-line help and usage texts.
    static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        TerminalText.escaped(text, keepingLineBreaks: keepingLineBreaks)
    }
}
