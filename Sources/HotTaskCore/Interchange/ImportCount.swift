import Foundation

/// A count of an import file's tasks that stops at the store's limit, over the bytes in
/// 1 MB reads: a file past the limit is refused from its count, in a fraction of a second and
/// a megabyte, instead of after parsing it whole (a 200 MB Taskwarrior export took 9 s and
/// 265 MB to be refused).
///
/// Tasks are counted by shape, not parsed: the objects of a top-level JSON array (a
/// Taskwarrior export), top-level objects (Taskwarrior's one object a line), the objects of an
/// array in the one top-level object (a HotTask document's `tasks`), `BEGIN:VTODO` lines
/// (iCalendar), or lines with text (todo.txt). The full read still checks the real count.
enum ImportCount {
    /// Files smaller than this are parsed straight away: refusing them takes no longer.
    static let smallFile = 16 << 20

    /// Whether the regular file at `path` holds more than `limit` tasks, read until that is
    /// known; false for anything it cannot read (the full read then says why).
    static func exceeds(_ limit: Int, path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > smallFile else { return false }
        var counter = Counter(limit: limit)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return counter.finish() }
            if counter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]).bindMemory(to: UInt8.self)) { return true }
        }
    }

    /// The counts, fed a piece of the file at a time.
    struct Counter {
        let limit: Int
        /// Decided by the first byte that is not white space: `[` or `{` is JSON.
        private var kind: UInt8 = 0
        // JSON: containers open (1 for an array, 0 for an object, up to depth 64), in a string, after a backslash.
        private var depth = 0
        private var containers = [UInt8](repeating: 0, count: 64)
        private var inString = false
        private var escaped = false
        private var topArrayObjects = 0
        private var topObjects = 0
        private var innerArrayObjects = 0
        // Lines: at the start of a line, whether this line has text, and the text's first bytes.
        private var lineHasText = false
        private var lineStart: [UInt8] = []
        private var lines = 0
        private var todos = 0
        /// An iCalendar file: only its VTODOs count, not its lines.
        private var isCalendar: Bool?
        private static let beginTodo = Array("BEGIN:VTODO".utf8)

        init(limit: Int) { self.limit = limit }

        /// Whether the count has passed the limit after `bytes`.
        mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for byte in bytes {
                if kind == 0 {
                    if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { continue }
                    kind = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") ? UInt8(ascii: "{") : UInt8(ascii: "l")
                }
                if kind == UInt8(ascii: "{") {
                    json(byte)
                } else {
                    line(byte)
                }
            }
            return passed
        }

        /// At the end of the file: whether the count passed the limit.
        mutating func finish() -> Bool {
            if kind == UInt8(ascii: "l"), lineHasText { line(0x0A) }
            return passed
        }

        private var passed: Bool {
            if kind == UInt8(ascii: "l") { return (isCalendar == true ? todos : lines) > limit }
            // One top-level object: a document with its tasks in an array; more: one task a line.
            return topArrayObjects > limit || topObjects > limit || (topObjects <= 1 && innerArrayObjects > limit)
        }

        private mutating func json(_ byte: UInt8) {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                return
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if byte == UInt8(ascii: "{") {
                    if depth == 0 { topObjects += 1 }
                    if depth == 1, containers[0] == 1 { topArrayObjects += 1 }
                    if depth == 2, containers[0] == 0, containers[1] == 1 { innerArrayObjects += 1 }
                }
                if depth < containers.count { containers[depth] = byte == UInt8(ascii: "[") ? 1 : 0 }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(depth - 1, 0)
            default: break
            }
        }

        private mutating func line(_ byte: UInt8) {
            if byte == 0x0A {
                if lineHasText { lines += 1 }
                if lineStart == Self.beginTodo { todos += 1 }
                if isCalendar == nil, lineHasText { isCalendar = lineStart == Array("BEGIN:VCALE".utf8) }
                lineHasText = false
                lineStart.removeAll(keepingCapacity: true)
                return
            }
            if byte != 0x20, byte != 0x09, byte != 0x0D { lineHasText = true }
            if lineStart.count < Self.beginTodo.count, byte != 0x0D { lineStart.append(byte) }
        }
    }
}
