import Foundation

/// A small XML reader for what WebDAV answers hold: elements, namespaces, attributes, text,
/// CDATA, comments and processing instructions; the five named entities and numeric ones.
/// No DTD: a document with `<!DOCTYPE` is refused, so no entity is ever defined or expanded.
///
/// One pass over the bytes, no limit of its own on a document's size (libxml2, under
/// Foundation's `XMLParser`, refused answers over 10 MB: a 40,000-task listing, or one task
/// with a large ATTACH). It keeps HotTask off FoundationXML.
struct XMLReader {
    /// Elements nested deeper than this are refused (a tree that deep is no DAV answer, and
    /// freeing it would recurse as deep).
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private struct Open {
        var node: XMLNode
        var qualifiedName: ArraySlice<UInt8>
        /// Prefixes this element declares (`xmlns:d="DAV:"`), "" for the default namespace.
        var declared: [String: String]
    }
    private var open: [Open] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The document's root element, nil when it is not well-formed XML (or has a DTD).
    static func parse(_ data: Data) -> XMLNode? {
        data.withUnsafeBytes { raw in
            var reader = XMLReader(raw.bindMemory(to: UInt8.self))
            return reader.document()
        }
    }

    private mutating func document() -> XMLNode? {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        var root: XMLNode?
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                index = Self.find(UInt8(ascii: "<"), in: bytes[start...]) ?? bytes.count
                let run = bytes[start..<index]
                if open.isEmpty {
                    // Outside the root only white space may stand.
                    guard run.allSatisfy(Self.isSpace) else { return nil }
                } else {
                    guard let text = Self.decoded(run) else { return nil }
                    open[open.count - 1].node.text += text
                }
                continue
            }
            if starts(with: "<?") {
                guard skip(past: "?>") else { return nil }
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                guard skip(past: "]]>"), !open.isEmpty else { return nil }
                open[open.count - 1].node.text += Self.lineEndsNormalized(bytes[start..<(index - 3)])
            } else if starts(with: "</") {
                guard let node = endTag() else { return nil }
                if open.isEmpty {
                    guard root == nil else { return nil }
                    root = node
                } else {
                    open[open.count - 1].node.children.append(node)
                }
            } else if starts(with: "<!") {
                return nil  // a DOCTYPE (or anything else with `<!`): no DTD is read
            } else {
                guard root == nil, let closed = startTag() else { return nil }
                if let closed {
                    if open.isEmpty { root = closed } else { open[open.count - 1].node.children.append(closed) }
                }
            }
        }
        return open.isEmpty ? root : nil
    }

    /// `<name attributes>` or `<name attributes/>`. nil: malformed; `.some(nil)`: opened;
    /// `.some(node)`: an empty element, closed already.
    private mutating func startTag() -> XMLNode?? {
        index += 1
        let name = self.name()
        guard !name.isEmpty, open.count < Self.maximumDepth else { return nil }
        var attributes: [(ArraySlice<UInt8>, String)] = []
        var declared: [String: String] = [:]
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ">") || starts(with: "/>") { break }
            let attribute = self.name()
            skipSpace()
            guard !attribute.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.count && bytes[index] != quote {
                guard bytes[index] != UInt8(ascii: "<") else { return nil }
                index += 1
            }
            guard index < bytes.count, let value = Self.decoded(bytes[start..<index]) else { return nil }
            index += 1
            let text = String(decoding: attribute, as: UTF8.self)
            if text == "xmlns" {
                declared[""] = value
            } else if text.hasPrefix("xmlns:") {
                declared[String(text.dropFirst(6))] = value
            } else {
                attributes.append((attribute, value))
            }
        }
        let empty = bytes[index] == UInt8(ascii: "/")
        index += empty ? 2 : 1
        open.append(Open(node: XMLNode(namespace: "", name: ""), qualifiedName: name, declared: declared))
        let (namespace, local) = resolve(name)
        open[open.count - 1].node.namespace = namespace
        open[open.count - 1].node.name = local
        for (attribute, value) in attributes { open[open.count - 1].node.attributes[String(decoding: attribute, as: UTF8.self)] = value }
        guard empty else { return .some(nil) }
        return .some(open.removeLast().node)
    }

    /// `</name>`: the element it closes, nil when it closes none that is open.
    private mutating func endTag() -> XMLNode? {
        index += 2
        let name = self.name()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">"), let last = open.last, last.qualifiedName.elementsEqual(name) else {
            return nil
        }
        index += 1
        return open.removeLast().node
    }

    /// The namespace and local name of a qualified name, by the declarations in scope (an
    /// undeclared prefix has none, as libxml2 read it).
    private func resolve(_ qualified: ArraySlice<UInt8>) -> (String, String) {
        let colon = qualified.firstIndex(of: UInt8(ascii: ":"))
        let prefix = colon.map { String(decoding: qualified[..<$0], as: UTF8.self) } ?? ""
        let local = String(decoding: colon.map { qualified[($0 + 1)...] } ?? qualified, as: UTF8.self)
        if prefix == "xml" { return ("http://www.w3.org/XML/1998/namespace", local) }
        for scope in open.reversed() {
            if let namespace = scope.declared[prefix] { return (namespace, local) }
        }
        return ("", local)
    }

    private mutating func name() -> ArraySlice<UInt8> {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "<")
            {
                break
            }
            index += 1
        }
        return ArraySlice(bytes[start..<index])
    }

    private mutating func skipSpace() {
        while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    /// Moves past the next `end`; false when there is none.
    private mutating func skip(past end: StaticString) -> Bool {
        while index < bytes.count, let next = Self.find(end.utf8Start.pointee, in: bytes[index...]) {
            index = next
            if starts(with: end) {
                index += end.utf8CodeUnitCount
                return true
            }
            index += 1
        }
        return false
    }

    /// Where `byte` first is in `run`, by `memchr` (a 30 MB text run is one call).
    static func find(_ byte: UInt8, in run: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let base = run.base.baseAddress, !run.isEmpty,
            let found = memchr(base + run.startIndex, Int32(byte), run.count)
        else { return nil }
        return run.startIndex + (base + run.startIndex).distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Text with its line ends made `\n` (as XML reads them), then its references replaced
    /// (so a `&#13;` stays a CR); nil for an unknown entity or a reference to no character.
    static func decoded(_ run: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        guard find(UInt8(ascii: "&"), in: run) != nil else { return lineEndsNormalized(run) }
        let source = find(0x0D, in: run) != nil ? Array(lineEndsNormalized(run).utf8) : Array(run)
        return source.withUnsafeBufferPointer { referencesReplaced($0) }
    }

    /// The text with `&…;` replaced; the runs between them copied whole.
    private static func referencesReplaced(_ source: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        var position = 0
        while position < source.count {
            guard let ampersand = find(UInt8(ascii: "&"), in: source[position...]) else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: source[position...]))
                break
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[position..<ampersand]))
            position = ampersand
            guard let semicolon = source[position..<min(source.count, position + 12)].firstIndex(of: UInt8(ascii: ";")) else {
                return nil
            }
            let entity = String(decoding: source[(position + 1)..<semicolon], as: UTF8.self)
            let scalar: Unicode.Scalar?
            switch entity {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
            }
            guard let scalar, scalar.value != 0 else { return nil }
            out.append(contentsOf: String(scalar).utf8)
            position = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `\r\n` and a lone `\r` read as `\n`; the runs between CRs are copied whole.
    static func lineEndsNormalized(_ run: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard var cr = find(0x0D, in: run) else { return String(decoding: run, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(run.count)
        var start = run.startIndex
        while true {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: run.base[start..<cr]))
            out.append(0x0A)
            start = cr + 1 < run.endIndex && run.base[cr + 1] == 0x0A ? cr + 2 : cr + 1
            guard start < run.endIndex, let next = find(0x0D, in: run.base[start..<run.endIndex]) else { break }
            cr = next
        }
        if start < run.endIndex { out.append(contentsOf: UnsafeBufferPointer(rebasing: run.base[start..<run.endIndex])) }
        return String(decoding: out, as: UTF8.self)
    }
}
