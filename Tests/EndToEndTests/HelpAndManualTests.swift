import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// Issue 42: `--help` did not list -V, and two of its examples wrapped mid-command at 80
/// columns (pasted, they broke); the man page's synopsis showed `hottask --recover.br hottask
/// --sync`, and two of its sentences said what the binary does not do.
@Suite("--help and the man page say what the binary does", .serialized)
struct HelpAndManualTests {
    private static let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/hottask.1").path

    @Test func helpFitsEightyColumnsListsMinusVAndItsExamplesPasteWhole() throws {
        let help = runHotTask(["--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        let lines = help.stdout.components(separatedBy: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(lines.contains { $0.hasPrefix("  -V, --version ") && $0.hasSuffix("Print the version.") })
        // Every example is whole on its lines: a command, or a command's continuation after `\`.
        let start = try #require(lines.firstIndex(of: "Examples:"))
        let end = try #require(lines[start...].firstIndex(of: ""))
        let examples = Array(lines[(start + 1)..<end])
        #expect(examples.contains("  id=$(hottask --add \"Pay rent\" --json | jq -r '.tasks[0].id')"))
        #expect(examples.contains("  hottask --done \"$id\""))
        for (index, line) in examples.enumerated() {
            let continues = index > 0 && examples[index - 1].hasSuffix("\\")
            #expect(
                continues ? line.hasPrefix("    --") : line.hasPrefix("  hottask ") || line.hasPrefix("  id=") || line.hasPrefix("  task "),
                "an example broken across lines: |\(line)|")
        }
        let version = runHotTask(["-V"])
        #expect(version.status == 0 && version.stdout == runHotTask(["--version"]).stdout && version.stdout.hasPrefix("hottask "))
    }

    /// The page as `man` shows it at 80 columns, without the bold and underline overstrikes.
    private func rendered() -> String {
        let run = runProcess(["sh", "-c", "groff -man -Tutf8 -rLL=78n '\(Self.manual)' | col -bx"])
        #expect(run.status == 0, "groff: \(run.stderr)")
        return run.stdout
    }

    @Test func theManualsSynopsisHasEachCommandOnItsOwnLine() throws {
        let page = rendered()
        let synopsis = try #require(page.components(separatedBy: "SYNOPSIS").dropFirst().first?.components(separatedBy: "DESCRIPTION").first)
        let lines = synopsis.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("hottask --recover"))
        #expect(lines.contains("hottask --sync"))
        #expect(!page.contains(".br"))
    }

    /// What the manual says about a config with problems and about empty key lists, and what
    /// the binary does with them.
    @Test func theManualSaysWhatTheBinaryDoesWithAConfigsProblems() {
        let page = rendered().replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(page.contains("A problem in the file drops only what it is about"))
        #expect(!page.contains("is ignored as a whole"))
        #expect(page.contains("An action given an empty array keeps only its fixed key"))
        #expect(!page.contains("An action given an empty array is unbound"))
        let folder = TemporaryFolder()
        let config = folder.write("colour = \"red\"\ndefault_section = \"bonus\"\n[keys]\nhelp = []\n", to: "config.toml")
        let added = runHotTask(["--file", folder.storePath, "--config", config, "--add", "Walk the dog"])
        #expect(added.status == 0)
        #expect(added.stdout == "Added to Bonus: Walk the dog\n", "the rest of the file is used")
        #expect(
            added.stderr
                == "hottask: warning: config \(config) line 1: unknown setting \"colour\" (known: theme, default_section, details, mouse, date_format, keys, [keys], [colors], [sync]); skipped\n"
        )
        let emptied = folder.write("[keys]\nundo = []\n", to: "emptied.toml")
        let refused = runHotTask(["--file", folder.storePath, "--config", emptied, "--list"])
        #expect(refused.status == 0)
        #expect(
            refused.stderr
                == "hottask: warning: config \(emptied) line 2: undo would have no key at all; give it one (or leave it out to keep its standard keys); [keys] not used: the standard keys\n"
        )
    }
}
