import ArgumentParser
import FoundationEssentials
import Glibc
import HotTaskCore

extension HotTaskCommand {
    /// `--repeat RULE`: where it goes and a RULE that reads, checked before anything is opened
    /// (a usage error, exit 64).
    func validateRepeatOptions() throws {
        guard let repeatText else { return }
        if add.isEmpty && edit.isEmpty { throw ValidationError("--repeat goes with --add or --edit.") }
        if !add.isEmpty && !edit.isEmpty { throw ValidationError("--repeat goes with --add or with --edit, not both: give them in two commands.") }
        _ = try Self.repeatRule(repeatText)
    }

    static func repeatRule(_ text: String) throws -> RepeatRule {
        switch RepeatInput.parse(text) {
        case .success(let rule): return rule
        case .failure(let refusal): throw ValidationError("--repeat: \(refusal)")
        }
    }
}
