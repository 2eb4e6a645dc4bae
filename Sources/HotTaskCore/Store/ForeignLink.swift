import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A symbolic link another user put in a folder others may write (`/tmp`): never followed.
///
/// HotTask reads links itself (a save replaces a link's target, not the link), and that steps
/// around the kernel's `protected_symlinks`. So the kernel's rule is applied here, for the store
/// and every export: a link in a folder others may write (sticky or not) is followed only when
/// it is the user's own or the folder owner's. Anyone else could aim it at a file of the user's
/// (root's included), which a save or an export would then overwrite.
public struct ForeignLink: Error, Sendable, Equatable {
    /// The link, as reached from the path given.
    public let link: String
    public let owner: uid_t
    /// The folder it is in, which others may write.
    public let folder: String

    /// What it is and the fix, for a message that names the path given first.
    public var reason: String {
        "\(link) is a symbolic link of another user (\(FileSystem.owner(owner))) in \(folder), a folder others may write, "
            + "and HotTask follows no other user's link there: remove the link (rm '\(link)') or give the real path"
    }

    /// The first link on the way to `path` (its folders' and its own, and theirs in turn, as the
    /// kernel walks them) that is another user's in a folder others may write; nil when none.
    public static func first(in path: String) -> ForeignLink? {
        var pending = components(path)
        var folder = path.hasPrefix("/") ? "" : FileManager.default.currentDirectoryPath
        // The kernel gives up after 40 links (ELOOP); so does this walk, finding nothing.
        var hops = 0
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name.isEmpty || name == "." { continue }
            if name == ".." {
                folder = FileSystem.folder(of: folder.isEmpty ? "/" : folder)
                if folder == "/" { folder = "" }
                continue
            }
            let candidate = folder + "/" + name
            var info = stat()
            // Missing (to be made) or unreadable: nothing further can be a link to follow.
            guard lstat(candidate, &info) == 0 else { return nil }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                folder = candidate
                continue
            }
            hops += 1
            guard hops <= 40, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate) else { return nil }
            if let foreign = refused(link: candidate, info, in: folder.isEmpty ? "/" : folder) { return foreign }
            pending = components(target) + pending
            if target.hasPrefix("/") { folder = "" }
        }
        return nil
    }

    /// The kernel's `may_follow_link`, widened to every folder others may write: a link there
    /// is followed only when its owner is us or the folder's owner.
    static func refused(link: String, _ info: stat, in folder: String) -> ForeignLink? {
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else { return nil }
        guard folderInfo.st_mode & S_IWOTH != 0, info.st_uid != geteuid(), info.st_uid != folderInfo.st_uid else { return nil }
        return ForeignLink(link: link, owner: info.st_uid, folder: folder)
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}
