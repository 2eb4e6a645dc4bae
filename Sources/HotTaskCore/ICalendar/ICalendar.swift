import FoundationEssentials
import Glibc

/// One property of an iCalendar component (RFC 5545 §3.1), kept as it came: its name, its
/// parameters as written (`;TZID=Europe/Paris`), and its value still escaped. A property
/// HotTask does not know is written back byte for byte.
struct ICalProperty: Equatable, Sendable {
    var name: String
    var parameters: String
    var value: String

    init(name: String, parameters: String = "", value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// A TEXT property's value with its escapes undone (`\,` `\;` `\\` `\n`).
    var text: String { ICalendar.unescape(value) }
}

/// A component (`VCALENDAR`, `VTODO`, `VALARM`…): its properties in order and the components
/// inside it.
struct ICalComponent: Equatable, Sendable {
    var name: String
    var properties: [ICalProperty]
    var components: [ICalComponent]

    init(name: String, properties: [ICalProperty] = [], components: [ICalComponent] = []) {
        self.name = name
        self.properties = properties
        self.components = components
    }

    func first(_ name: String) -> ICalProperty? {
        properties.first { $0.name == name }
    }

    /// Sets the property's value (its parameters dropped), adding it when absent; nil removes it.
    mutating func set(_ name: String, _ value: String?) {
        guard let value else {
            properties.removeAll { $0.name == name }
            return
        }
        if let index = properties.firstIndex(where: { $0.name == name }) {
            properties.removeAll { $0.name == name }
            properties.insert(ICalProperty(name: name, value: value), at: index)
        } else {
            properties.append(ICalProperty(name: name, value: value))
        }
    }

    /// Sets the property's value and keeps its parameters (LANGUAGE, ALTREP…), adding it
    /// without any when absent.
    mutating func setKeepingParameters(_ name: String, _ value: String) {
        if let index = properties.firstIndex(where: { $0.name == name }) {
            properties[index].value = value
        } else {
            properties.append(ICalProperty(name: name, value: value))
        }
    }

    /// The component as content lines, folded at 75 octets, each ended by CRLF.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the component's content lines; `inside` writes more of them just before its END
    /// line (a calendar's to-dos, written one by one as they are made).
    func write(to out: inout String, inside: (inout String) -> Void = { _ in }) {
        ICalendar.appendFolded("BEGIN:\(name)", to: &out)
        for property in properties {
            ICalendar.appendFolded("\(property.name)\(property.parameters):\(property.value)", to: &out)
        }
        for component in components { component.write(to: &out) }
        inside(&out)
        ICalendar.appendFolded("END:\(name)", to: &out)
    }
}

/// Reading and writing iCalendar text: content lines, folding, escapes and UTC times.
enum ICalendar {
    struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// Deepest nesting read (VCALENDAR > VTODO > VALARM is 3): a hostile file cannot recurse far.
    static let maximumDepth = 16

    /// The top-level components of an iCalendar text (usually one VCALENDAR).
    static func parse(_ text: String) throws(ParseError) -> [ICalComponent] {
        var text = text
        var result: Result<[ICalComponent], ParseError> = .success([])
        text.withUTF8 { bytes in
            do throws(ParseError) { result = .success(try parse(bytes, handing: nil)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Why `parse` of bytes failed when they are not UTF-8.
    static let notUTF8 = "not UTF-8 text"

    /// `parse` of UTF-8 bytes. With `child`, each component directly inside a top-level one is
    /// handed to it (with the top-level one's name) as soon as it ends, instead of being kept:
    /// a calendar of 100,000 to-dos is never held as a tree.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, handing child: ((String, ICalComponent) -> Void)?
    ) throws(ParseError) -> [ICalComponent] {
        var roots: [ICalComponent] = []
        var stack: [ICalComponent] = []
        try forEachUnfoldedLine(bytes) { (number, line) throws(ParseError) in
            guard let property = property(line) else {
                throw ParseError(line: number, reason: "not a content line (NAME:value)")
            }
            switch property.name {
            case "BEGIN":
                guard stack.count < maximumDepth else { throw ParseError(line: number, reason: "components nested too deep") }
                stack.append(ICalComponent(name: property.value.uppercased()))
            case "END":
                guard let last = stack.popLast(), last.name == property.value.uppercased() else {
                    throw ParseError(line: number, reason: "END:\(property.value) does not close the open component")
                }
                if stack.isEmpty {
                    roots.append(last)
                } else if stack.count == 1, let child {
                    child(stack[0].name, last)
                } else {
                    stack[stack.count - 1].components.append(last)
                }
            default:
                guard !stack.isEmpty else { throw ParseError(line: number, reason: "a property outside any component") }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last { throw ParseError(line: 0, reason: "BEGIN:\(open.name) is never closed") }
        return roots
    }

    /// Each line with its continuations joined (a line starting with a space or tab continues
    /// the one before), with the number of the line it starts on; empty lines skipped. Lines
    /// end at CRLF, LF or CR. Folds are joined as octets, as RFC 5545 §3.1 folds (a writer may
    /// fold inside a UTF-8 sequence, and strict parsers join first): each joined line is then
    /// checked as UTF-8 on its own, so the whole text is never copied into one String.
    static func forEachUnfoldedLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, String) throws(ParseError) -> Void
    ) throws(ParseError) {
        var pending: (number: Int, line: [UInt8])?
        func hand(_ done: (number: Int, line: [UInt8])) throws(ParseError) {
            guard let line = String(validating: done.line, as: UTF8.self) else { throw ParseError(line: done.number, reason: notUTF8) }
            try body(done.number, line)
        }
        var number = 0
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            number += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if let first = line.first, first == 0x20 || first == 0x09, pending != nil {
                // Exactly the fold's one byte: a Character would take a combining mark after the
                // space with it.
                pending!.line += line.dropFirst()
            } else if !line.isEmpty {
                if let done = pending { try hand(done) }
                pending = (number, Array(line))
            }
            // CRLF is one line end.
            start = end < bytes.count && bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? end + 2 : end + 1
        }
        if let done = pending { try hand(done) }
    }

    /// `NAME;PARAM=x;PARAM="a:b":value`: the name upper-cased, the parameters kept as written.
    static func property(_ line: String) -> ICalProperty? {
        // Its delimiters are ASCII, never inside a UTF-8 sequence: found in the bytes (a walk by
        // Character, letters told by Unicode's tables, was a quarter of an iCalendar import).
        var line = line
        return line.withUTF8 { bytes -> ICalProperty? in
            var inQuotes = false
            var nameEnd: Int?
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
                if nameEnd == nil, byte == UInt8(ascii: ";") { nameEnd = index }
                guard byte == UInt8(ascii: ":"), !inQuotes else { continue }
                let end = nameEnd ?? index
                func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
                let name = text(0..<end)
                guard end > 0, isPropertyName(UnsafeBufferPointer(rebasing: bytes[0..<end]), name) else { return nil }
                return ICalProperty(name: name.uppercased(), parameters: text(end..<index), value: text((index + 1)..<bytes.count))
            }
            return nil
        }
    }

    /// Letters, digits and `-` (any script's letters and digits, as before; ASCII from bytes).
    private static func isPropertyName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.allSatisfy { byte in
                (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-")
            }
        }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }

    /// Appends a content line folded so that no line exceeds 75 octets, never splitting a
    /// UTF-8 sequence.
    static func appendFolded(_ line: String, to out: inout String) {
        // Most lines need no fold: appended whole (scalar by scalar, a 100,000-task calendar
        // took seconds).
        if line.utf8.count <= 75 {
            out += line
            out += "\r\n"
            return
        }
        var width = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let octets = UTF8.width(scalar)
            if width + octets > limit {
                out += "\r\n "
                width = 0
                limit = 74  // the leading space counts
            }
            out.unicodeScalars.append(scalar)
            width += octets
        }
        out += "\r\n"
    }

    /// A TEXT value escaped for writing.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            default: out.append(character)
            }
        }
        return out
    }

    static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var out = ""
        var escaping = false
        for character in value {
            if escaping {
                switch character {
                case "n", "N": out += "\n"
                default: out.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// A DATE-TIME in UTC (`20261122T093000Z`): the store's timestamp without its separators.
    static func format(_ date: Date) -> String {
        Timestamp.format(date).filter { $0 != "-" && $0 != ":" }
    }

    /// A DATE-TIME or DATE value; a time without `Z` (floating or with TZID) is read as UTC,
    /// close enough for "which change is later".
    static func date(_ value: String) -> Date? {
        var text = value.trimmingBlanks()
        if text.utf8.count == 8 { text += "T000000" }
        if text.utf8.count == 15 { text += "Z" }
        return Timestamp.parseTaskwarrior(text)
    }
}
