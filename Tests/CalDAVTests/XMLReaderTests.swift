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

    @Test("a 30 MB calendar-data reads whole (libxml2 stopped at 10 MB)")
    func noSizeLimit() throws {
        let body = String(repeating: "ATTACH:" + String(repeating: "A", count: 66) + "\r\n", count: 30 << 14)
        let root = try #require(parse("<d:multistatus xmlns:d=\"DAV:\"><d:data>\(body)</d:data></d:multistatus>"))
        #expect(root.child("data")?.text.utf8.count == body.utf8.count - (30 << 14))
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
