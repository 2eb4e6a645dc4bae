import Foundation
import TestSupport

/// One of the project's Markdown files, read for what the doc tests check: its fenced blocks,
/// its links and the anchors its headings make.
struct MarkdownDocument: CustomStringConvertible, Sendable {
    /// A fenced block: its info string (` ```console ` gives "console"), its first line's number
    /// in the file, and its text.
    struct Block: Sendable {
        var language: String
        var line: Int
        var text: String
    }

    /// The path from the repository's root (`README.md`, `docs/SYNC.md`).
    let name: String
    let text: String

    var description: String { name }

    /// The repository's root: two folders above this file's.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The README and every page in docs/: the pages whose shell examples are run.
    static var userDocs: [MarkdownDocument] {
        let pages = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        return (["README.md"] + pages.map { "docs/" + $0 }).map(MarkdownDocument.init(named:))
    }

    /// Every Markdown file of the project's own (not the build's): the pages whose links must resolve.
    static var all: [MarkdownDocument] {
        userDocs + ["ARCHITECTURE.md", "DECISIONS.md", "RELIABILITY.md"].map(MarkdownDocument.init(named:))
    }

    init(named name: String) {
        self.name = name
        text = fileText(Self.root + "/" + name) ?? ""
    }

    var blocks: [Block] {
        var blocks: [Block] = []
        var open: Block?
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var block = open {
                if line.hasPrefix("```") {
                    blocks.append(block)
                    open = nil
                } else {
                    block.text += line + "\n"
                    open = block
                }
            } else if line.hasPrefix("```") {
                let language = line.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
                open = Block(language: language, line: offset + 2, text: "")
            }
        }
        return blocks
    }

    /// Links outside code (`[text](target)`), with their line numbers.
    var links: [(line: Int, target: String)] {
        var found: [(Int, String)] = []
        var inBlock = false
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") { inBlock.toggle() }
            guard !inBlock else { continue }
            // Inline code is not a link: `[a](b)` inside backticks is left out.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }
                .map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                found.append((offset + 1, String(after[..<close])))
                rest = after[close...]
            }
        }
        return found
    }

    /// The anchors GitHub gives the headings: lower case, punctuation dropped, spaces as `-`.
    var anchors: Set<String> {
        var anchors: Set<String> = []
        var inBlock = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inBlock.toggle() }
            guard !inBlock, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            anchors.insert(Self.anchor(heading))
        }
        return anchors
    }

    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }
}
