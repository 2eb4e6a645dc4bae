import FoundationEssentials
import Glibc

/// A small XML reader for what WebDAV answers hold: elements, namespaces, attributes, text,
/// CDATA, comments and processing instructions; the five named entities and numeric ones.
/// No DTD: a document with `<!DOCTYPE` is refused, so no entity is ever defined or expanded.
/// It keeps HotTask off FoundationXML (libxml2 refused answers over 10 MB).
///
/// It reads as the bytes come (`feed`, then `finish`): a construct whose end has not come yet
/// waits, and what is read is let go. So an answer of any size reads in the memory of what its
/// reader keeps (`MultistatusStream` takes each finished `<response>` as it ends). A text run,
/// CDATA section, comment or instruction longer than `maximumHeld` is not held but skipped as
/// it comes; the element whose text it was says how much it lost (`XMLNode.skippedBytes`), so
/// one huge object is named and skipped, and the rest of the answer reads.
struct XMLReader {
    /// Elements nested deeper than this are refused (a tree that deep is no DAV answer, and
    /// freeing it would recurse as deep).
    static let maximumDepth = 256
    /// The most text one element keeps, and the most of one run held while its end is awaited
    /// (a sync reads no object over 10 MB).
    static let maximumHeld = 16 << 20
    /// A tag longer than this is refused: no DAV answer has one.
    static let maximumTag = 1 << 20

    /// The bytes not yet let go; `bytes` views them while a piece is read.
    private let storage = ByteBlock()
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var index = 0
    /// How far the end of the construct at `index` was looked for in vain: the search goes on
    /// from there when more bytes come, so a long run is searched once.
    private var searched = 0
    private var skipping: Skipping?
    private var begun = false
    private var failed = false

    private struct Open {
        var node: XMLNode
        var qualifiedName: ArraySlice<UInt8>
        /// Prefixes this element declares (`xmlns:d="DAV:"`), "" for the default namespace.
        var declared: [String: String]
    }
    private var open: [Open] = []
    private var root: XMLNode?
    /// Bytes of text and elements held inside the root's open child (a `<response>` being read).
    private(set) var held = 0

    /// A run too long to hold, skipped as it comes.
    private enum Skipping {
        case text, cdata, comment, instruction
    }

    init() {}

    /// The document's root element, nil when it is not well-formed XML (or has a DTD).
    static func parse(_ data: Data) -> XMLNode? {
        var reader = XMLReader()
        _ = data.withUnsafeBytes { reader.feed($0) }
        return reader.finish()
    }

    /// Reads what `piece` completes. False once the document cannot be well-formed.
    mutating func feed(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard !failed else { return false }
        // What is read is let go once it is half the block (each byte moves at most once more).
        if index > 0 && index * 2 >= storage.count {
            storage.dropFirst(index)
            searched = max(0, searched - index)
            index = 0
        }
        storage.append(piece)
        read(final: false)
        return !failed
    }

    /// The root element once every byte has come, nil when the document is not well-formed.
    mutating func finish() -> XMLNode? {
        guard !failed else { return nil }
        read(final: true)
        return failed || !open.isEmpty ? nil : root
    }

    /// The root's children that have ended since last asked, let go here: a multistatus's
    /// `<response>`s as they come.
    mutating func takeFinishedTopChildren() -> [XMLNode] {
        var taken: [XMLNode] = []
        if !open.isEmpty {
            swap(&taken, &open[0].node.children)
        } else if root != nil {
            swap(&taken, &root!.children)
        }
        return taken
    }

    private mutating func read(final: Bool) {
        bytes = storage.bytes
        if !begun {
            guard bytes.count >= 3 || final else { return }
            begun = true
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        }
        while !failed && index < bytes.count {
            if let skipping {
                guard skip(skipping, final: final) else { break }
                continue
            }
            guard let end = constructEnd(final: final) else { break }
            searched = 0
            if !readConstruct(to: end) { failed = true }
        }
        if final && skipping != nil && skipping != .text { failed = true }
    }

    /// Where the construct at `index` ends, nil while it has not come whole (or when it never
    /// can: `failed` is then set).
    private mutating func constructEnd(final: Bool) -> Int? {
        let start = index
        guard bytes[start] == UInt8(ascii: "<") else {
            if let end = Self.find(UInt8(ascii: "<"), in: bytes[max(start, searched)...]) { return end }
            if final { return bytes.count }
            return wait(skipping: .text)
        }
        let markup: (prefix: Int, end: StaticString, skipping: Skipping)
        if starts(with: "<?") {
            markup = (2, "?>", .instruction)
        } else if starts(with: "<!--") {
            markup = (4, "-->", .comment)
        } else if starts(with: "<![CDATA[") {
            markup = (9, "]]>", .cdata)
        } else if starts(with: "<!") && !Self.mayStart(bytes[start...], "<!--") && !Self.mayStart(bytes[start...], "<![CDATA[") {
            failed = true  // a DOCTYPE (or anything else with `<!`): no DTD is read
            return nil
        } else if bytes.count - start < 9 && (Self.mayStart(bytes[start...], "<!--") || Self.mayStart(bytes[start...], "<![CDATA[")) {
            if final { failed = true }
            return nil
        } else {
            if let end = tagEnd(from: start) { return end }
            if final || bytes.count - start > Self.maximumTag { failed = true }
            return nil
        }
        let from = max(start + markup.prefix, searched - (markup.end.utf8CodeUnitCount - 1))
        if let found = Self.find(markup.end, in: bytes[from...]) { return found + markup.end.utf8CodeUnitCount }
        if final {
            failed = true
            return nil
        }
        return wait(skipping: markup.skipping)
    }

    /// Waits for more bytes for the run at `index`, skipping it from now on when it is too long
    /// to hold.
    private mutating func wait(skipping kind: Skipping) -> Int? {
        searched = bytes.count
        guard bytes.count - index > Self.maximumHeld else { return nil }
        switch kind {
        case .text: break
        case .cdata:
            guard !open.isEmpty else {
                failed = true
                return nil
            }
            index += 9
        case .comment: index += 4
        case .instruction: index += 2
        }
        if kind == .text || kind == .cdata, !open.isEmpty { keep(nil, skipped: 0) }
        skipping = kind
        searched = 0
        return nil
    }

    /// Skips the long run at `index` up to its end or the last byte come; true at its end.
    private mutating func skip(_ kind: Skipping, final: Bool) -> Bool {
        let end: StaticString
        switch kind {
        case .text:
            let stop = Self.find(UInt8(ascii: "<"), in: bytes[index...]) ?? bytes.count
            let run = bytes[index..<stop]
            if open.isEmpty {
                // Outside the root only white space may stand.
                guard run.allSatisfy(Self.isSpace) else {
                    failed = true
                    return false
                }
            } else {
                keep(nil, skipped: run.count)
            }
            index = stop
            if stop < bytes.count || final { skipping = nil }
            return skipping == nil
        case .cdata: end = "]]>"
        case .comment: end = "-->"
        case .instruction: end = "?>"
        }
        let found = Self.find(end, in: bytes[index...])
        // The end's first bytes may have come without the rest: they wait.
        let stop = found ?? max(index, bytes.count - (end.utf8CodeUnitCount - 1))
        if kind == .cdata { keep(nil, skipped: stop - index) }
        index = stop
        guard let found else { return false }
        index = found + end.utf8CodeUnitCount
        skipping = nil
        return true
    }

    /// Whether `run` could be the start of `pattern` (all of it that has come matches).
    private static func mayStart(_ run: Slice<UnsafeBufferPointer<UInt8>>, _ pattern: StaticString) -> Bool {
        let count = min(run.count, pattern.utf8CodeUnitCount)
        return memcmp(run.base.baseAddress! + run.startIndex, pattern.utf8Start, count) == 0
    }

    /// Past the `>` that ends the tag at `start` (one inside a quoted value does not), nil
    /// when it has not come.
    private func tagEnd(from start: Int) -> Int? {
        var quote: UInt8?
        var at = start + 1
        while at < bytes.count {
            let byte = bytes[at]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return at + 1
            } else if byte == UInt8(ascii: "<") {
                return at  // not well-formed: the tag's reader refuses it
            }
            at += 1
        }
        return nil
    }

    /// Reads the construct from `index` to `end`, which has come whole; false when it is not
    /// well-formed.
    private mutating func readConstruct(to end: Int) -> Bool {
        guard bytes[index] == UInt8(ascii: "<") else {
            let run = bytes[index..<end]
            index = end
            if open.isEmpty { return run.allSatisfy(Self.isSpace) }
            guard let text = Self.decoded(run) else { return false }
            keep(text)
            return true
        }
        if starts(with: "<?") || starts(with: "<!--") {
            index = end
        } else if starts(with: "<![CDATA[") {
            guard !open.isEmpty else { return false }
            keep(Self.lineEndsNormalized(bytes[(index + 9)..<(end - 3)]))
            index = end
        } else if starts(with: "</") {
            guard let node = endTag() else { return false }
            finished(node)
        } else {
            guard root == nil, let closed = startTag() else { return false }
            if let closed { finished(closed) }
        }
        return true
    }

    /// An element that ended goes to its parent, or is the root.
    private mutating func finished(_ node: XMLNode) {
        if open.isEmpty {
            root = node
            return
        }
        // The root's child ended: what it held goes with it to whoever takes it.
        held = open.count == 1 ? 0 : held + 64
        open[open.count - 1].node.children.append(node)
    }

    /// Adds text to the innermost open element, or counts `skipped` bytes it lost. An element
    /// keeps at most `maximumHeld` bytes of text; past that it keeps none, only the count.
    private mutating func keep(_ text: String?, skipped: Int = 0) {
        let last = open.count - 1
        let size = text?.utf8.count ?? 0
        if last > 0 { held += size }
        if text == nil || open[last].node.skippedBytes > 0 || open[last].node.text.utf8.count + size > Self.maximumHeld {
            open[last].node.skippedBytes += open[last].node.text.utf8.count + size + skipped
            open[last].node.text = ""
        } else {
            open[last].node.text += text!
        }
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
}

/// Bytes in one block that grows as pieces come and lets go of those read.
final class ByteBlock {
    private var start: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private(set) var count = 0

    deinit { free(start) }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    func append(_ piece: UnsafeRawBufferPointer) {
        guard let source = piece.baseAddress, !piece.isEmpty else { return }
        if count + piece.count > capacity {
            capacity = max(count + piece.count, capacity * 2, 64 << 10)
            guard let grown = realloc(start, capacity) else { fatalError("out of memory reading an answer") }
            start = grown.assumingMemoryBound(to: UInt8.self)
        }
        memcpy(start! + count, source, piece.count)
        count += piece.count
    }

    func dropFirst(_ length: Int) {
        guard let start, length > 0 else { return }
        memmove(start, start + length, count - length)
        count -= length
    }
}
