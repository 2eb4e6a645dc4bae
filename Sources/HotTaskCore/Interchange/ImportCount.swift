import FoundationEssentials
import Glibc

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
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        // A bound first: a file whose bound is within the limit is not counted by shape.
        if let bound = upperBound(descriptor, stoppingPast: limit, buffer: buffer), bound <= limit { return false }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { return false }
        var counter = Counter(limit: limit)
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return counter.finish() }
            if counter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]).bindMemory(to: UInt8.self)) { return true }
        }
    }

    /// At most how many tasks the file holds, nil once that passes `limit` (or for a file that
    /// cannot be read): every task of a JSON file opens with a `{`, and every task of a line
    /// format takes a line. Counting one byte value is a loop of a few instructions a byte,
    /// where the count by shape goes through a state machine (35 ms of an import of 100,000
    /// tasks, on one core, before anything else could start).
    static func upperBound(_ descriptor: Int32, stoppingPast limit: Int, buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var counted: UInt8?
        var count = 0
        while true {
            let got = read(descriptor, buffer.baseAddress, buffer.count)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            // A last line without its line break is a line too.
            guard got > 0 else { return count + (counted == 0x0A ? 1 : 0) }
            var bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<got]).bindMemory(to: UInt8.self)
            if counted == nil {
                // Decided by the first byte that is not white space, as `Counter` decides.
                guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { continue }
                counted = bytes[first] == UInt8(ascii: "[") || bytes[first] == UInt8(ascii: "{") ? UInt8(ascii: "{") : 0x0A
                bytes = UnsafeBufferPointer(rebasing: bytes[first...])
            }
            count += occurrences(of: counted!, in: bytes)
            if count > limit { return nil }
        }
    }

    /// How many of `bytes` are `target`: loops the compiler turns into vector instructions,
    /// counting into a byte for each run of 255 bytes, through the pointer without bounds checks
    /// (a loop into an Int, or a checked one, was not vectorized: 20 ms of an import of 100,000
    /// tasks, where this takes 3).
    static func occurrences(of target: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var start = 0
        while start < bytes.count {
            let end = min(start &+ 255, bytes.count)
            var run: UInt8 = 0
            var index = start
            while index < end {
                run &+= base[index] == target ? 1 : 0
                index &+= 1
            }
            count &+= Int(run)
            start = end
        }
        return count
    }

    /// The counts, fed a piece of the file at a time.
    struct Counter {
        let limit: Int
        /// Decided by the first byte that is not white space: `[` or `{` is JSON.
        private var kind: UInt8 = 0
        private var json = JSONShape()
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
        ///
        /// The bytes of a string and of a line past its start only end something: they are
        /// skipped in tight loops (a byte at a time through one state machine, the count was a
        /// tenth of a 100,000-task import).
        mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            let end = bytes.count
            while index < end {
                let byte = bytes[index]
                if kind == 0 {
                    if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                        index += 1
                        continue
                    }
                    kind = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") ? UInt8(ascii: "{") : UInt8(ascii: "l")
                }
                if kind == UInt8(ascii: "{") {
                    json.feed(bytes, from: index)
                    break
                } else if lineHasText, lineStart.count == Self.beginTodo.count, byte != 0x0A {
                    // The rest of a line whose start is known only ends it.
                    guard let newline = memchr(bytes.baseAddress! + index, 0x0A, end - index) else { break }
                    index = bytes.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                } else {
                    line(byte)
                    index += 1
                }
            }
            return passed
        }

        /// The first quote or backslash at or after `start` (`bytes.count` if none): eight bytes a step
        /// while none of them is one (most of a document is inside strings).
        static func quoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            var index = start
            if let base = bytes.baseAddress {
                while index + 8 <= bytes.count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if ByteWord.equal(word, UInt8(ascii: "\"")) | ByteWord.equal(word, UInt8(ascii: "\\")) != 0 { break }
                    index += 8
                }
            }
            while index < bytes.count, bytes[index] != UInt8(ascii: "\\"), bytes[index] != UInt8(ascii: "\"") { index += 1 }
            return index
        }

        /// At the end of the file: whether the count passed the limit.
        mutating func finish() -> Bool {
            if kind == UInt8(ascii: "l"), lineHasText { line(0x0A) }
            return passed
        }

        private var passed: Bool {
            if kind == UInt8(ascii: "l") { return (isCalendar == true ? todos : lines) > limit }
            // One top-level object: a document with its tasks in an array; more: one task a line.
            return json.topArrayObjects > limit || json.topObjects > limit || (json.topObjects <= 1 && json.innerArrayObjects > limit)
        }

        /// What a JSON file's objects are counted by: the containers open, whether in a string and
        /// after a backslash there. Only the two outermost containers' kinds matter.
        struct JSONShape {
            private var depth = 0
            /// Whether the outermost container, and the one in it, is an array.
            private var outerIsArray = false
            private var secondIsArray = false
            private var inString = false
            private var escaped = false
            private(set) var topArrayObjects = 0
            private(set) var topObjects = 0
            private(set) var innerArrayObjects = 0

            /// Counts `bytes` from `start`. The state is kept in locals through the loop (fields
            /// of `self` were read and written back from memory at every byte).
            mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
                var (depth, outerIsArray, secondIsArray, inString, escaped) = (depth, outerIsArray, secondIsArray, inString, escaped)
                var (topArrayObjects, topObjects, innerArrayObjects) = (topArrayObjects, topObjects, innerArrayObjects)
                var index = start
                let end = bytes.count
                while index < end {
                    if inString {
                        if escaped {
                            escaped = false
                            index += 1
                            continue
                        }
                        index = Counter.quoteOrBackslash(in: bytes, from: index)
                        guard index < end else { break }
                        if bytes[index] == UInt8(ascii: "\\") { escaped = true } else { inString = false }
                        index += 1
                        continue
                    }
                    let byte = bytes[index]
                    index += 1
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        let isArray = byte == UInt8(ascii: "[")
                        if !isArray {
                            if depth == 0 { topObjects += 1 }
                            if depth == 1, outerIsArray { topArrayObjects += 1 }
                            if depth == 2, !outerIsArray, secondIsArray { innerArrayObjects += 1 }
                        }
                        if depth == 0 { outerIsArray = isArray }
                        if depth == 1 { secondIsArray = isArray }
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(depth - 1, 0)
                    default: break
                    }
                }
                (self.depth, self.outerIsArray, self.secondIsArray) = (depth, outerIsArray, secondIsArray)
                (self.inString, self.escaped) = (inString, escaped)
                (self.topArrayObjects, self.topObjects, self.innerArrayObjects) = (topArrayObjects, topObjects, innerArrayObjects)
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
