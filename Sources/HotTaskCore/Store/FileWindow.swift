import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A few MB of an open file, read at offsets, that a reader slides along the file as it goes:
/// a 36 MB snapshot is decoded without ever being held whole. Each thread has its own.
///
/// It never decides what the bytes mean. It only says whether the bytes it holds are all that
/// is left of the file (`holdsTheRest`), and whether a read failed, so that a reader can tell
/// "this ran off my window" from "this ran off the file".
final class FileWindow {
    let file: FileSystem.OpenFile
    private var memory: UnsafeMutableRawBufferPointer
    /// The file offset of the window's first byte.
    private(set) var origin: Int
    private var count = 0
    /// Nothing lies in the file past the bytes held (or a read failed: see `failed`).
    private(set) var holdsTheRest = false
    /// A read failed, or the file grew past `limit`: what was read must not be trusted whole.
    private(set) var failed = false
    let limit: Int

    /// The size it was made with (it grows for a value larger than what is left of it).
    let initialCapacity: Int
    var capacity: Int { memory.count }

    init(_ file: FileSystem.OpenFile, at offset: Int, capacity: Int = 1 << 20, limit: Int) {
        self.file = file
        self.limit = limit
        initialCapacity = max(capacity, 1 << 12)
        memory = .allocate(byteCount: initialCapacity, alignment: 16)
        origin = offset
        fill()
    }

    deinit { memory.deallocate() }

    /// The bytes held, from `origin`.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: memory.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Keeps the bytes from file offset `position` on (moved to the front) and reads on after them.
    func slide(to position: Int) {
        let kept = max(0, min(count, origin + count - position))
        if kept > 0 { memmove(memory.baseAddress!, memory.baseAddress! + (count - kept), kept) }
        origin = position
        count = kept
        fill()
    }

    /// `slide(to:)` into twice the room: for one value larger than what was left of the window.
    func grow(from position: Int) {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: memory.count * 2, alignment: 16)
        let kept = max(0, min(count, origin + count - position))
        if kept > 0 { larger.baseAddress!.copyMemory(from: memory.baseAddress! + (count - kept), byteCount: kept) }
        memory.deallocate()
        memory = larger
        origin = position
        count = kept
        fill()
    }

    /// Starts over at file offset `position`, nothing kept.
    func restart(at position: Int) {
        origin = position
        count = 0
        holdsTheRest = false
        fill()
    }

    private func fill() {
        guard count < memory.count, !holdsTheRest else { return }
        let (got, failure) = FileSystem.preadFully(file.fd, at: origin + count, into: UnsafeMutableRawBufferPointer(rebasing: memory[count...]))
        count += got
        // Short of full: the end of the file, or a read that failed.
        if count < memory.count || failure != 0 { holdsTheRest = true }
        if failure != 0 || origin + count > limit {
            failed = true
            holdsTheRest = true
        }
    }
}
