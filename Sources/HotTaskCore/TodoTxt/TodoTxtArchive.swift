import FoundationEssentials
import Glibc

extension TodoTxtFormat {
    /// Where todo.sh archives a todo.txt file's completed lines: `done.txt` beside it (its
    /// default DONE_FILE; auto-archive, on by default, moves every `x` line there). Only for a
    /// file named `todo.txt`: a `done.txt` beside any other .txt file may have nothing to do
    /// with it.
    static func archivePath(besides path: String) -> String? {
        if path == "todo.txt" { return "done.txt" }
        guard path.hasSuffix("/todo.txt") else { return nil }
        return String(path.dropLast("todo.txt".count)) + "done.txt"
    }
}
