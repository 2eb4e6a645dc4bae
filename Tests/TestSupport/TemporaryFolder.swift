import Foundation

/// A fresh, uniquely named folder under the system temp directory, removed when the value
/// goes away (or earlier through `remove()`).
public final class TemporaryFolder: @unchecked Sendable {
    /// The folder's absolute path.
    public let path: String

    /// `base`: where, when not the temp directory (`make test`'s is a folder only the user
    /// may enter, which another user's steps cannot reach).
    public init(under base: String = FileManager.default.temporaryDirectory.path) {
        path = base + "/hottask-tests-" + UUID().uuidString.lowercased()
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// The path of `name` inside the folder (which need not exist).
    public func path(_ name: String) -> String {
        path + "/" + name
    }

    /// The usual store path used by tests: `<folder>/tasks.json`.
    public var storePath: String { path("tasks.json") }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) -> String {
        write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) -> String {
        let target = path(name)
        _ = FileManager.default.createFile(atPath: target, contents: Data(bytes))
        return target
    }

    /// The names in the folder, sorted.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The bytes of the file at `path`, or nil when it cannot be read.
public func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map(Array.init)
}

/// The text of the file at `path`, or nil when it cannot be read.
public func fileText(_ path: String) -> String? {
    fileBytes(path).map { String(decoding: $0, as: UTF8.self) }
}
