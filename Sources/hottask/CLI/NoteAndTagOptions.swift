import ArgumentParser
import FoundationEssentials
import Glibc
import HotTaskCore

extension HotTaskCommand {
    /// `--note`, `--tag`, `--untag` and the filter's words: where they go, checked before anything
    /// is opened (a usage error, exit 64).
    func validateNoteAndTagOptions() throws {
        for (given, name) in [(note != nil, "--note"), (!tag.isEmpty, "--tag"), (!untag.isEmpty, "--untag")] where given {
            if add.isEmpty && edit.isEmpty { throw ValidationError("\(name) goes with --add or --edit.") }
            if !add.isEmpty && !edit.isEmpty {
                throw ValidationError("\(name) goes with --add or with --edit, not both: give them in two commands.")
            }
        }
        if note == "-" && importPath == "-" {
            throw ValidationError("--note - and --import - cannot both read standard input.")
        }
        if let filter, let word = TaskFilter.Query(filter).unknownDue {
            throw ValidationError("--filter: “\(word)” is not a due filter; use \(TaskFilter.Query.dueForms).")
        }
    }

    /// The note `--note` gives: its text, standard input's for `-`, empty (to clear) for `none`.
    func noteText() throws -> String? {
        guard let note else { return nil }
        switch note {
        case "none": return ""
        case "-":
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                bytes += buffer[0..<count]
                // Far past any note: the rule refuses it, without reading the rest.
                if bytes.count > 4 * StoreLimits.noteBytes { break }
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw UserFacingError(.refused, "--note -: standard input is not UTF-8 text; nothing was changed")
            }
            return text
        default: return note
        }
    }
}
