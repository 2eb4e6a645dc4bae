import Foundation
import TestSupport
import Testing

/// The README and docs/ say nothing a run would not show: every ```console block is run as
/// written (`TranscriptSession`: a fresh home, the built hottask, no config, UTC) and each
/// command's whole output compared; every link resolves. A block that uses `$SERVER` gets a
/// Radicale of its own there (user `me`; `pass show dav` gives its password).
/// `HOTTASK_RECORD_SNAPSHOTS=1` writes what really came into the blocks that differ.
@Suite("The docs' examples and links")
struct DocExamplesTests {
    /// What `pass show dav` prints in the examples: the test server's password.
    static let password = "correct horse"

    @Test("every console example prints what its page says", arguments: MarkdownDocument.userDocs)
    func consoleExamples(_ page: MarkdownDocument) throws {
        var lines = page.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var changed = false
        // From the last block up, so that a recorded block of another length moves nothing above it.
        for block in page.blocks.filter({ $0.language == "console" }).reversed() {
            let transcript = Transcript(parsing: block.text, firstLine: block.line)
            #expect(!transcript.steps.isEmpty, "\(page) line \(block.line): a console block with no `$ ` command")
            var server: CalDAVTestServer?
            var environment: [String: String] = [:]
            if block.text.contains("$SERVER") {
                let started = try CalDAVTestServer(.radicale, user: "me", password: Self.password, calendar: false)
                server = started
                environment["SERVER"] = String(started.root.dropLast())
            }
            let session = TranscriptSession(tools: ["pass": "#!/bin/sh\necho '\(Self.password)'\n"], environment: environment)
            if let server { session.shownAs.append((String(server.root.dropLast()), "$SERVER")) }
            let recorded = session.expect(transcript, place: page.name)
            if recorded != transcript {
                let count = OutputPattern.lines(block.text).count
                lines.replaceSubrange((block.line - 1)..<(block.line - 1 + count), with: OutputPattern.lines(recorded.text))
                changed = true
            }
            withExtendedLifetime(server) {}
        }
        if changed && Snapshot.isRecording {
            let path = MarkdownDocument.root + "/" + page.name
            #expect(FileManager.default.createFile(atPath: path, contents: Data(lines.joined(separator: "\n").utf8)))
            Issue.record("recorded the examples of \(page); run again without \(Snapshot.recordVariable) to compare")
        }
    }

    /// A shell line that is not run must still be checked: the make targets it names exist,
    /// and a package file it names is the one `make deb` builds.
    @Test("shell blocks name only make targets and the package that exist", arguments: MarkdownDocument.userDocs)
    func shellBlocks(_ page: MarkdownDocument) throws {
        let makefile = try #require(fileText(MarkdownDocument.root + "/Makefile"))
        let targets = Set(
            makefile.split(separator: "\n").compactMap { line -> String? in
                guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.hasPrefix("#"), !line.contains("="), !line.hasPrefix(".")
                else { return nil }
                return String(line[..<colon])
            })
        let version = try #require(HotTaskBinary.version)
        for block in page.blocks {
            // A comment is not part of the command.
            let commands = OutputPattern.lines(block.text).map { line in
                String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            switch block.language {
            case "console", "toml", "json", "text": continue
            case "sh":
                for command in commands {
                    var words = command.split(separator: " ").map(String.init)
                    if words.first == "sudo" { words.removeFirst() }
                    switch words.first {
                    case "make":
                        for word in words.dropFirst() where !word.contains("=") {
                            #expect(targets.contains(word), "\(page) line \(block.line): no make target \(word)")
                        }
                    case "dpkg", "tar":
                        // The package and the tarball of this version, or the package by name.
                        #expect(
                            command.contains("hottask_\(version)_amd64.deb") || command.contains("hottask-\(version)-linux-x86_64.tar.gz")
                                || words == ["dpkg", "-r", "hottask"],
                            "\(page) line \(block.line): \(command) names another package than version \(version)'s")
                    case "hottask-\(version)-linux-x86_64/install.sh": continue
                    default:
                        Issue.record(
                            "\(page) line \(block.line): `\(command)` is neither make nor the package; make it a console block, so it is run")
                    }
                }
            default:
                let prompts = commands.filter { $0.hasPrefix("$ ") || $0.hasPrefix("hottask ") }
                #expect(prompts.isEmpty, "\(page) line \(block.line): shell commands outside a console block are never run: \(prompts)")
            }
        }
    }

    @Test("every link resolves to a file and, with an anchor, to a heading in it", arguments: MarkdownDocument.all)
    func links(_ page: MarkdownDocument) {
        let folder = URL(fileURLWithPath: MarkdownDocument.root + "/" + page.name).deletingLastPathComponent()
        for (line, target) in page.links where !target.hasPrefix("http://") && !target.hasPrefix("https://") && !target.hasPrefix("mailto:") {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? URL(fileURLWithPath: MarkdownDocument.root + "/" + page.name) : folder.appendingPathComponent(parts[0])
            guard FileManager.default.fileExists(atPath: file.path) else {
                Issue.record("\(page) line \(line): \(target) names no file")
                continue
            }
            if parts.count == 2 {
                let name = String(file.standardizedFileURL.path.dropFirst(MarkdownDocument.root.count + 1))
                #expect(MarkdownDocument(named: name).anchors.contains(parts[1]), "\(page) line \(line): no heading #\(parts[1]) in \(name)")
            }
        }
    }
}
