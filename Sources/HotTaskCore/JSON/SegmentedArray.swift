import Dispatch
import FoundationEssentials
import Glibc

/// A large array of task objects read on two threads, in segments: this thread reads the first
/// two fifths, the other the segments of the rest from the front, and this thread, done with its
/// part, moves the other's finished segments into the array and takes the ones left from the
/// back. Neither waits while work is left: with one split at the middle, a second half of
/// completed tasks (a date more each) kept this thread idle for a sixth of an export.
///
/// A segment starts at a line that looks like an element (`lineStartingAnElement`) and is read
/// exactly as one thread reading from the array's start would read it, until it stands exactly
/// at the next segment's start or past the array's `]`. A segment counts only when the one before
/// it counted and stood exactly at its start; then its reading is the one a single thread would
/// have done, its failure included. The others are dropped.
extension JSONParser {
    /// The segments the last three fifths are cut into: small enough that the two threads end
    /// within a thirtieth of the array of each other (with eight over the second half, this
    /// thread waited for the other's last segment for a twentieth of an export).
    static let segments = 16

    /// Reads the array's elements from just past its `[` (a non-empty array) to just past its
    /// `]`, each with `element` into the piece of the segment it lies in: the first segment's
    /// into `first` (which the caller may have made room in), the others' into new pieces, each
    /// moved onto `first` with `absorb`, in order. This thread absorbs the other's segments as
    /// they are done, between its own: joining them was a tenth of a store's read, done after
    /// both threads had finished (moving 50,000 tasks into the array touches 8 MB anew).
    ///
    /// Each thread reads through one window of the file, moved from segment to segment: a
    /// window for each segment was memory mapped and touched anew (page faults, a tenth of a
    /// Taskwarrior import's time on a virtual machine).
    mutating func segmentedArray<Piece>(
        first: consuming Piece, _ newPiece: @escaping @Sendable () -> Piece,
        element: @escaping @Sendable (inout JSONParser, inout Piece) throws -> Void,
        absorb: (inout Piece, consuming Piece) throws -> Void
    ) throws -> Piece {
        var first = first
        let starts = segmentStarts()
        guard !starts.isEmpty else {
            _ = try readSegment(&first, stop: nil, element)
            return first
        }
        let shared = SharedSegments<Piece>(reading: self, starts: starts, newPiece, element)
        let group = DispatchGroup()
        OwnThread.run(in: group) {
            var parser: JSONParser?
            while let segment = shared.claim(fromFront: true) { shared.read(segment, with: &parser) }
        }
        // The other thread reads from `bytes` or the file: it must be done before this returns,
        // whatever happens; and once this fails or the array has ended, it takes no more.
        defer {
            shared.abandon()
            group.wait()
        }
        // Past the `]` before the first start: the segments lie outside this array.
        guard try readSegment(&first, stop: starts[0], element) else { return first }
        // This thread's window, moved on to the segments it takes (and back, at the end).
        var parser: JSONParser? = self
        var absorbed = 0
        // Where the array ended: inside the last segment absorbed, which stood past its `]`.
        var end: Int?
        func absorbInOrder(waiting: Bool) throws {
            while end == nil, absorbed < starts.count, let result = shared.take(absorbed, waiting: waiting) {
                switch result {
                case .failed(let error): throw error
                case .read(let piece, let landed, let at):
                    try absorb(&first, piece)
                    absorbed += 1
                    if !landed { end = at }
                }
            }
        }
        repeat {
            try absorbInOrder(waiting: false)
            guard end == nil, let segment = shared.claim(fromFront: false) else { break }
            shared.read(segment, with: &parser)
        } while true
        try absorbInOrder(waiting: true)
        // The last segment has no next start to land on: an array that never ended is for the strict path.
        guard let end else { throw GiveUp() }
        seek(to: end)
        return first
    }

    /// Reads elements from here until this stands exactly at `stop` (true) or just past the
    /// array's `]` (false).
    fileprivate mutating func readSegment<Piece>(
        _ piece: inout Piece, stop: Int?, _ element: (inout JSONParser, inout Piece) throws -> Void
    ) throws -> Bool {
        repeat {
            refillIfLow()
            skipWhitespace()
            if let stop, position == stop { return true }
            try element(&self, &piece)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return false
    }

    /// Where the segments of the last three fifths of what is left may start (file offsets, or
    /// indexes for bytes in memory), rising; none for small inputs or one core.
    private func segmentStarts() -> [Int] {
        let end = window?.file.size ?? bytes.count
        guard end - position > 1 << 20, ProcessInfo.processInfo.activeProcessorCount > 1 else { return [] }
        var starts: [Int] = []
        for part in 0..<Self.segments {
            // From two fifths of the way: this thread also moves the other's tasks into the array.
            let near = position + (end - position) * (4 * Self.segments + 6 * part) / (10 * Self.segments)
            guard let start = elementStart(near: near), start > starts.last ?? position else { continue }
            starts.append(start)
        }
        return starts
    }

    /// The reading of each segment, shared by the two threads.
    // Unchecked: `claim` hands each segment to one thread under the lock; its slot is written by
    // that thread alone, under the lock, and taken under it (each slot an object of its own: no
    // two threads ever write one array's buffer); `bytes` and the file are read-only.
    private final class SharedSegments<Piece>: @unchecked Sendable {
        enum Result {
            case read(Piece, landed: Bool, end: Int)
            case failed(any Error)
        }

        private let bytes: UnsafeBufferPointer<UInt8>
        private let file: (FileSystem.OpenFile, limit: Int, capacity: Int)?
        private let starts: [Int]
        private let newPiece: @Sendable () -> Piece
        private let element: @Sendable (inout JSONParser, inout Piece) throws -> Void
        private let lock = ThreadLock()
        /// The segments not yet claimed.
        private var left: Range<Int>
        /// Each segment's reading, once done.
        private let slots: [Slot]

        private final class Slot {
            var result: Result?
            /// Claimed, and its reading not done yet.
            var reading = false
        }
        /// Signalled each time a segment's reading is done.
        private let finished = DispatchSemaphore(value: 0)

        /// `segment`'s reading, taken from its slot once it is done; nil when it is not done yet
        /// and `waiting` is false, or when it was never claimed (the reading was abandoned).
        func take(_ segment: Int, waiting: Bool) -> Result? {
            while true {
                let (result, pending) = lock.withLock { () -> (Result?, Bool) in
                    let result = slots[segment].result
                    slots[segment].result = nil
                    return (result, result == nil && (slots[segment].reading || left.contains(segment)))
                }
                if result != nil || !waiting || !pending { return result }
                finished.wait()
            }
        }

        init(
            reading parser: JSONParser, starts: [Int], _ newPiece: @escaping @Sendable () -> Piece,
            _ element: @escaping @Sendable (inout JSONParser, inout Piece) throws -> Void
        ) {
            bytes = parser.bytes
            file = parser.window.map { ($0.file, $0.limit, $0.initialCapacity) }
            self.starts = starts
            self.newPiece = newPiece
            self.element = element
            left = starts.indices
            slots = starts.map { _ in Slot() }
        }

        /// The next segment to read, from the front or the back of those left.
        func claim(fromFront: Bool) -> Int? {
            lock.withLock {
                guard !left.isEmpty else { return nil }
                let segment = fromFront ? left.lowerBound : left.upperBound - 1
                left = fromFront ? left.dropFirst() : left.dropLast()
                slots[segment].reading = true
                return segment
            }
        }

        /// Nothing more is read: the array failed, or ended before the segments.
        func abandon() { lock.withLock { left = left.upperBound..<left.upperBound } }

        /// Reads `segment` with `parser` moved to its start (made at the first segment a thread reads).
        func read(_ segment: Int, with parser: inout JSONParser?) {
            if parser == nil, let (file, limit, capacity) = file {
                parser = JSONParser(FileWindow(file, at: starts[segment], capacity: capacity, limit: limit))
            } else {
                if parser == nil { parser = JSONParser(bytes) }
                parser!.seek(to: starts[segment])
            }
            var piece = newPiece()
            let result: Result
            do {
                let landed = try parser!.readSegment(&piece, stop: starts.indices.contains(segment + 1) ? starts[segment + 1] : nil, element)
                result = parser!.window?.failed == true ? .failed(GiveUp()) : .read(piece, landed: landed, end: parser!.position)
            } catch {
                result = .failed(error)
            }
            lock.withLock {
                slots[segment].result = result
                slots[segment].reading = false
            }
            finished.signal()
        }
    }
}
