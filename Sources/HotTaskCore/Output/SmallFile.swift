import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small file of the app's own (not the store) replaced whole, so that a crash leaves the
/// old or the new one: its folders are made (0700) and the file is 0600 (or `mode`).
public enum SmallFile {
    /// Nil when written, else why not.
    public static func replace(_ path: String, with text: String, mode: mode_t = 0o600) -> String? {
        do {
            try FileSystem.makeDirectories(FileSystem.folder(of: path))
            try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: mode)
            return nil
        } catch {
            return error.reason
        }
    }
}
