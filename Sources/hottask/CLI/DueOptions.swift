import ArgumentParser
import FoundationEssentials
import Glibc
import HotTaskCore

/// The order `--list --sort` prints in.
enum ListOrder: String, ExpressibleByArgument, CaseIterable {
    case manual
    case due
}

extension HotTaskCommand {
    /// `--due`, `--overdue` and `--sort`: where they go, and a WHEN that reads. A bad WHEN is
    /// a usage error (exit 64) before anything is opened.
    func validateDueOptions() throws {
        if let due {
            if add.isEmpty && edit.isEmpty { throw ValidationError("--due goes with --add or --edit.") }
            if !add.isEmpty && !edit.isEmpty { throw ValidationError("--due goes with --add or with --edit, not both: give them in two commands.") }
            _ = try Self.dueRequest(due)
        }
        for (given, name) in [(overdue, "--overdue"), (sort != .manual, "--sort")] where given && !list {
            throw ValidationError("\(name) goes with --list.")
        }
        if !edit.isEmpty && edit.count == 1 && due == nil && note == nil && repeatText == nil && tag.isEmpty && untag.isEmpty && lists.inList == nil
            && subtasks.under == nil
        {
            throw ValidationError(
                "--edit takes a task and its new caption: --edit 3 \"New caption\" (or --edit 3 with --due WHEN, --repeat RULE, --note TEXT, --tag or --untag WORD, --in LIST, --under N)."
            )
        }
    }

    /// `--due WHEN` read as of now (again in run(): validate() has no place to keep it).
    static func dueRequest(_ text: String) throws -> DueInput.Request {
        switch DueInput.parse(text, now: Date(), local: .current) {
        case .success(let request): return request
        case .failure(let refusal): throw ValidationError("--due: \(refusal)")
        }
    }
}
