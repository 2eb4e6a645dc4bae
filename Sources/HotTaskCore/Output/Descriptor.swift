import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one loop that writes bytes to a descriptor: the store, exports, stdout and stderr, the
/// rescue file and the terminal's mode switches all go through it.
public enum Descriptor {
    public struct WriteFailure: Error, Sendable {
        /// The errno (EPIPE: the reader has gone).
        public let code: Int32
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Writes every byte, retrying short writes and interruptions; a descriptor a parent left
    /// non-blocking is waited on rather than failing with EAGAIN.
    public static func write(_ buffer: UnsafeRawBufferPointer, to fd: Int32) throws(WriteFailure) {
        guard let base = buffer.baseAddress else { return }
        var written = 0
        while written < buffer.count {
            let count = Glibc.write(fd, base + written, buffer.count - written)
            if count >= 0 {
                written += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            default: throw WriteFailure(code: errno)
            }
        }
    }

    /// `text`'s UTF-8 bytes, the same way.
    public static func write(_ text: String, to fd: Int32) throws(WriteFailure) {
        var text = text
        var failure: WriteFailure?
        text.withUTF8 { utf8 in
            do throws(WriteFailure) { try write(UnsafeRawBufferPointer(utf8), to: fd) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public static func write(_ bytes: [UInt8], to fd: Int32) throws(WriteFailure) {
        var failure: WriteFailure?
        bytes.withUnsafeBytes { buffer in
            do throws(WriteFailure) { try write(buffer, to: fd) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Everything `fd` gives until its end (standard input piped to `--sync-setup`, a child's
    /// output), read to the end but at most about `keeping` bytes of it kept.
    public static func readAll(_ fd: Int32, keeping: Int = .max) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes }
            if bytes.count < keeping { bytes += buffer[0..<count] }
        }
    }
}
