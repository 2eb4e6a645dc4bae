import FoundationEssentials
import Glibc

/// The byte-level pieces of `XMLReader`: finding a byte, white space, and text with its line
/// ends and references read as XML reads them.
extension XMLReader {
    /// Where `byte` first is in `run`, by `memchr` (a 30 MB text run is one call).
    static func find(_ byte: UInt8, in run: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let base = run.base.baseAddress, !run.isEmpty,
            let found = memchr(base + run.startIndex, Int32(byte), run.count)
        else { return nil }
        return run.startIndex + (base + run.startIndex).distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Where `pattern` first starts in `run` (its first byte found by `memchr`).
    static func find(_ pattern: StaticString, in run: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        let count = pattern.utf8CodeUnitCount
        var at = run.startIndex
        while let next = find(pattern.utf8Start.pointee, in: run.base[at..<run.endIndex]) {
            guard next + count <= run.endIndex else { return nil }
            if memcmp(run.base.baseAddress! + next, pattern.utf8Start, count) == 0 { return next }
            at = next + 1
        }
        return nil
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
