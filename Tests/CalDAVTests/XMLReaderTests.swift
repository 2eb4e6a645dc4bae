import Foundation
import Seeded
import Testing

@testable import CalDAV

/// HotTask's own XML reader for WebDAV answers: what servers write reads as libxml2 read it,
/// anything with a DTD or not well-formed is refused, and no input crashes it or is too large.
@Suite("XML reader")
struct XMLReaderTests {
    func parse(_ text: String) -> XMLNode? { XMLReader.parse(Data(text.utf8)) }

    @Test("namespaces by prefix and by default, CDATA, the five entities and numeric ones, CR LF read as LF, comments and PIs skipped")
    func readsWhatServersWrite() throws {
        let root = try #require(
            parse(
                "\u{FEFF}<?xml version=\"1.0\"?>\r\n<!-- a comment --><D:multistatus xmlns:D=\"DAV:\" xmlns='urn:x'>"
                    + "<D:response><D:href>/a%20b/&amp;c.ics</D:href><item name='VTODO' other=\"&quot;q&quot;\"/>"
                    + "<D:prop><![CDATA[<raw> & ]]>&lt;&gt;&apos;&#65;&#x263A;\r\nline\rend<?pi ignored?></D:prop></D:response></D:multistatus>"))
        #expect(root.namespace == "DAV:" && root.name == "multistatus")
        let response = try #require(root.child("response"))
        #expect(response.child("href")?.text == "/a%20b/&c.ics")
        let item = try #require(response.children.first { $0.name == "item" })
        #expect(item.namespace == "urn:x" && item.attributes == ["name": "VTODO", "other": "\"q\""])
        #expect(response.child("prop")?.text == "<raw> & <>'A☺\nline\nend")
    }

    @Test("a DTD, an unknown entity, a tag closed wrongly, text outside the root, two roots, or nesting past 256 is refused")
    func refusesWhatIsNotWellFormed() {
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;\">]><a>&lol2;</a>"
        for text in [
            bomb, "<a>&nbsp;</a>", "<a><b></a></b>", "text<a/>", "<a/><b/>", "<a>", "<a b=\"1></a>", "<a>&#0;</a>", "<a>&#xD800;</a>",
            "<![CDATA[x]]>", "",
        ] {
            #expect(parse(text) == nil, "\(text)")
        }
        #expect(parse(String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)) != nil)
        #expect(parse(String(repeating: "<a>", count: 257) + String(repeating: "</a>", count: 257)) == nil)
    }

    @Test("a 12 MB calendar-data reads whole (libxml2 stopped at 10 MB); a 30 MB one is counted, not kept, and its siblings read")
    func largeText() throws {
        let line = "ATTACH:" + String(repeating: "A", count: 66) + "\r\n"
        let whole = String(repeating: line, count: 12 << 14)
        let read = try #require(parse("<d:multistatus xmlns:d=\"DAV:\"><d:data>\(whole)</d:data></d:multistatus>"))
        #expect(read.child("data")?.text.utf8.count == whole.utf8.count - (12 << 14))
        #expect(read.child("data")?.skippedBytes == 0)

        let large = String(repeating: line, count: 30 << 14)
        let text = "<d:multistatus xmlns:d=\"DAV:\"><d:data>\(large)</d:data><d:href>/a</d:href></d:multistatus>"
        for pieces in [1, 2_000] {
            let root = try #require(fed(Array(text.utf8), pieceSize: text.utf8.count / pieces + 1).root)
            let data = try #require(root.child("data"))
            #expect(data.text.isEmpty && data.skippedBytes >= large.utf8.count - (30 << 14), "\(pieces) pieces: \(data.skippedBytes)")
            #expect(root.child("href")?.text == "/a")
        }
    }

    /// `bytes` read in pieces of `pieceSize`, the root's finished children taken after each
    /// piece; the most the reader held at any time.
    func fed(_ bytes: [UInt8], pieceSize: Int, takingChildren: Bool = false) -> (root: XMLNode?, taken: [XMLNode], mostHeld: Int) {
        var reader = XMLReader()
        var taken: [XMLNode] = []
        var mostHeld = 0
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            let piece = bytes[start..<min(start + pieceSize, bytes.count)]
            guard piece.withUnsafeBytes({ reader.feed($0) }) else { return (nil, taken, mostHeld) }
            if takingChildren { taken += reader.takeFinishedTopChildren() }
            mostHeld = max(mostHeld, reader.held)
        }
        let root = reader.finish()
        if takingChildren { taken += reader.takeFinishedTopChildren() }
        return (root, taken, mostHeld)
    }

    @Test("500 random trees, and 3,000 damaged ones, read in random pieces as they read whole")
    func piecesReadAsWhole() throws {
        var random = SeededGenerator(seed: 52)
        for round in 0..<3_500 {
            var bytes = Array(written(randomTree(&random, depth: 0), &random).utf8)
            if round >= 500 {
                let pieces = Array("<>/&;:=\"'![]-?xD".utf8) + [0xFF]
                for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = pieces.randomElement(using: &random)!
                }
            }
            let whole = XMLReader.parse(Data(bytes))
            let inPieces = fed(bytes, pieceSize: Int.random(in: 1...64, using: &random)).root
            #expect(
                whole.map { same($0, inPieces ?? XMLNode(namespace: "", name: "")) } ?? (inPieces == nil), "\(String(decoding: bytes, as: UTF8.self))"
            )
        }
    }

    @Test("a multistatus of 20,000 responses read in 16 KB pieces: each response taken as it ends, the reader holding one at most")
    func responsesTakenAsTheyEnd() throws {
        let response = { (n: Int) in
            "<d:response><d:href>/cal/\(n).ics</d:href><d:propstat><d:prop><d:getetag>\"\(n)\"</d:getetag></d:prop>"
                + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\n"
        }
        let text =
            "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\">" + (0..<20_000).map(response).joined()
            + "<d:sync-token>t</d:sync-token></d:multistatus>"
        let read = fed(Array(text.utf8), pieceSize: 16 << 10, takingChildren: true)
        let root = try #require(read.root)
        #expect(root.children.isEmpty)
        #expect(read.taken.count == 20_001)
        #expect(read.taken.dropLast().compactMap { $0.child("href")?.text } == (0..<20_000).map { "/cal/\($0).ics" })
        #expect(read.mostHeld <= 2 * response(19_999).utf8.count + 64 * 8, "\(read.mostHeld)")
    }

    @Test("a stream keeps the responses, and stops once they would take more than its limit")
    func streamStopsPastItsLimit() throws {
        let text =
            "<d:multistatus xmlns:d=\"DAV:\">" + (0..<1_000).map { "<d:response><d:href>/cal/\($0).ics</d:href></d:response>" }.joined()
            + "</d:multistatus>"
        let bytes = Array(text.utf8)
        func streamed(limit: Int) -> (MultistatusStream, stoppedAt: Int?) {
            let stream = MultistatusStream(maximumKept: limit)
            for start in stride(from: 0, to: bytes.count, by: 1_000) {
                let piece = bytes[start..<min(start + 1_000, bytes.count)]
                if !piece.withUnsafeBytes({ stream.consume($0) }) { return (stream, start) }
            }
            return (stream, nil)
        }
        let (whole, stopped) = streamed(limit: 1 << 20)
        #expect(stopped == nil)
        #expect(whole.finish()?.responses.map(\.href) == (0..<1_000).map { "/cal/\($0).ics" })
        let (small, stoppedEarly) = streamed(limit: 10_000)
        #expect(small.tooLarge && stoppedEarly != nil && stoppedEarly! < bytes.count / 2, "\(String(describing: stoppedEarly))")
        #expect(small.finish() == nil)
    }

    /// A random tree of a few namespaces and names, with text that needs escaping.
    func randomTree(_ random: inout SeededGenerator, depth: Int) -> XMLNode {
        let spaces = ["DAV:", "urn:ietf:params:xml:ns:caldav", "http://calendarserver.org/ns/"]
        let alphabet = Array("ab <>&\"'\n\t☺é]]>x;#")
        var node = XMLNode(namespace: spaces.randomElement(using: &random)!, name: ["href", "prop", "x-y", "a.b"].randomElement(using: &random)!)
        if Bool.random(using: &random) {
            node.attributes["name"] = String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        if depth < 4 {
            for _ in 0..<Int.random(in: 0...3, using: &random) { node.children.append(randomTree(&random, depth: depth + 1)) }
        }
        node.text = String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        return node
    }

    /// The tree as a server might write it: prefixes or a default namespace chosen at random,
    /// text escaped by entities or in CDATA.
    func written(_ node: XMLNode, _ random: inout SeededGenerator, declared: [String: String] = [:]) -> String {
        var declared = declared
        // One prefix per namespace (its first letter), or the default namespace.
        let prefix = declared[node.namespace] ?? (Bool.random(using: &random) ? String(node.namespace.prefix(1)) : "")
        var declarations = ""
        if declared[node.namespace] == nil {
            declarations = prefix.isEmpty ? " xmlns=\"\(node.namespace)\"" : " xmlns:\(prefix)=\"\(node.namespace)\""
            if prefix.isEmpty { declared = declared.filter { !$0.value.isEmpty } }
            declared[node.namespace] = prefix
        }
        let name = prefix.isEmpty ? node.name : "\(prefix):\(node.name)"
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: "\"", with: "&#34;")
        }
        let attributes = node.attributes.map {
            " \($0.key)=\"\(escaped($0.value).replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;"))\""
        }.joined()
        // Text goes before the children (the reader joins an element's text runs).
        let text = !node.text.contains("]]>") && Bool.random(using: &random) ? "<![CDATA[\(node.text)]]>" : escaped(node.text)
        let inner = text + node.children.map { written($0, &random, declared: declared) }.joined()
        return "<\(name)\(declarations)\(attributes)>\(inner)</\(name)>"
    }

    func same(_ a: XMLNode, _ b: XMLNode) -> Bool {
        a.namespace == b.namespace && a.name == b.name && a.text == b.text && a.attributes == b.attributes && a.children.count == b.children.count
            && zip(a.children, b.children).allSatisfy { same($0, $1) }
    }

    @Test("500 random trees, written as a server might, read back the same")
    func roundTrip() throws {
        var random = SeededGenerator(seed: 50)
        for _ in 0..<500 {
            let tree = randomTree(&random, depth: 0)
            let text = written(tree, &random)
            let read = try #require(parse(text), "\(text)")
            #expect(same(read, tree), "\(text)")
        }
    }

    @Test("3,000 damaged documents (bytes cut, doubled, changed) never crash the reader")
    func damagedNeverCrash() {
        var random = SeededGenerator(seed: 51)
        let pieces = Array("<>/&;:=\"'![]-?xD".utf8) + [0, 0xFF, 0xC3]
        var readable = 0
        for _ in 0..<3_000 {
            var bytes = Array(written(randomTree(&random, depth: 0), &random).utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(pieces.randomElement(using: &random)!, at: at)
                default: bytes[at] = pieces.randomElement(using: &random)!
                }
            }
            if XMLReader.parse(Data(bytes)) != nil { readable += 1 }
        }
        #expect(readable < 3_000, "some damage is refused")
    }
}
