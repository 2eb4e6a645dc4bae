import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// Where the draft (`Draft`) waits between runs: beside the remembered view, in
/// `$XDG_STATE_HOME/hottask/draft-<store hash>.toml` (0600, folders 0700), one file per store so
/// that a draft comes back only with the list it was typed for. While the app runs the file
/// follows the input (`DraftKeeper`); every way out writes it once more.
enum DraftFile {
    static func path(store: String, environment: [String: String]) -> String? {
        XDGFolder.state.path("draft-\(storeKey(store)).toml", environment: environment)
    }

    /// The draft kept for this store, if any. A file that cannot be read is moved aside
    /// (`.unreadable` added to its name), so that a later quit with nothing typed does not
    /// remove text it may still hold.
    static func load(store: String, environment: [String: String]) -> Draft? {
        guard let path = path(store: store, environment: environment),
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        guard data.count <= 256 * 1024, let text = String(data: data, encoding: .utf8), let entries = try? TOMLSubset.parse(text)
        else {
            rename(path, path + ".unreadable")
            return nil
        }
        var values: [String: String] = [:]
        for entry in entries where entry.table == nil {
            if case .string(let value) = entry.value { values[entry.key] = value }
        }
        var draft = Draft(input: values["input"] ?? "")
        if let id = values["edited_task"].flatMap(UUID.init(uuidString:)), let text = values["edited_caption"] {
            draft.captionEdit = (id, text)
        }
        return draft.isEmpty ? nil : draft
    }

    /// Writes the draft, or removes the file when there is nothing to keep. Nil when done,
    /// else what to tell the person (on stderr: the text would otherwise be lost silently).
    static func keep(_ draft: Draft, store: String, environment: [String: String]) -> String? {
        guard let path = path(store: store, environment: environment) else {
            return draft.isEmpty ? nil : "your unsaved text could not be kept (no HOME): \(draft.input)"
        }
        guard !draft.isEmpty else {
            unlink(path)
            return nil
        }
        var text = "# Written by HotTask on the way out: text typed and not yet added.\n"
        text += "store = \(SyncTableEdit.quoted(store))\n"
        text += "input = \(SyncTableEdit.quoted(draft.input))\n"
        if let edit = draft.captionEdit {
            text += "edited_task = \(SyncTableEdit.quoted(edit.taskID.uuidString))\nedited_caption = \(SyncTableEdit.quoted(edit.text))\n"
        }
        return SmallFile.replace(path, with: text).map { "your unsaved text could not be kept in \(path): \($0)" }
    }

    /// FNV-1a of the store's absolute path, in hex: stable across runs and Swift versions.
    private static func storeKey(_ store: String) -> String {
        let absolute = store.hasPrefix("/") ? store : FileManager.default.currentDirectoryPath + "/" + store
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolute.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// Keeps the draft file following the input while the app runs, so that a run killed with no
/// way out (SIGKILL, a crash, a power cut) loses at most the last second of typing, and text
/// already added never comes back at the next start: an emptied input empties the file at
/// once; typing is written a second after the first unsaved change (not on every key).
/// Only decides when; the write (a file, an fsync, a rename) is handed to `write`, which the
/// run loop gives to a background job, so that no key waits for the disk.
struct DraftKeeper {
    static let pause: TimeInterval = 1
    /// What was last handed over to be written.
    private var handedOver: Draft
    private var unsavedSince: Date?
    private let write: (Draft) -> Void

    init(onDisk: Draft?, write: @escaping (Draft) -> Void) {
        handedOver = onDisk ?? Draft()
        self.write = write
    }

    /// When the typing not written yet is due to be (the run loop wakes then); nil when the
    /// file follows the input.
    var deadline: Date? {
        unsavedSince.map { $0.addingTimeInterval(Self.pause) }
    }

    mutating func follow(_ draft: Draft, now: Date = Date()) {
        guard draft != handedOver else {
            unsavedSince = nil
            return
        }
        let since = unsavedSince ?? now
        guard draft.isEmpty || now.timeIntervalSince(since) >= Self.pause else {
            unsavedSince = since
            return
        }
        unsavedSince = nil
        handedOver = draft
        write(draft)
    }
}
