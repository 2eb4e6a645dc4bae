import FoundationEssentials
import Glibc

/// A vdir of several lists, as todoman and vdirsyncer lay out several calendars: one
/// sub-folder per list, each holding its tasks' `.ics` files and a `displayname` file with the
/// list's name (the folder's name is only a file name; the `displayname` is the list's).
extension VdirFolder {
    static let displayNameFile = "displayname"

    /// The sub-folders of `folder` that are calendars (they hold `.ics` files or a
    /// `displayname`), by name; hidden ones left out. Empty for a flat vdir.
    static func listFolders(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.sorted().filter { name in
            let path = folder + "/" + name
            guard isFolder(path), let inside = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
            return inside.contains { $0 == displayNameFile || ($0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".")) }
        }
    }

    /// What a sub-folder's `displayname` says, trimmed; nil when it has none, or an empty one.
    static func displayName(of folder: String) -> String? {
        guard let bytes = try? FileSystem.readAll(folder + "/" + displayNameFile, limit: 4096),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let name = text.trimmingBlanksAndNewlines()
        return name.isEmpty ? nil : name
    }

    /// A sub-folder name for list `name`: the name with `/`, `\`, `:` and control characters
    /// as `_` and a leading dot as `_` (a hidden folder is a syncer's, and todoman skips it);
    /// ` 2`, ` 3`… after it when a folder of `used` has that name ignoring case (a
    /// case-insensitive disk holds one of "Work" and "work").
    static func folderName(for name: String, avoiding used: Set<String>) -> String {
        var safe = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    let category = scalar.properties.generalCategory
                    return "/\\:".unicodeScalars.contains(scalar) || category == .control || category == .format ? "_" : scalar
                }))
        if safe.hasPrefix(".") { safe = "_" + safe.dropFirst() }
        let taken = Set(used.map { $0.lowercased() })
        var candidate = safe
        var number = 1
        while taken.contains(candidate.lowercased()) {
            number += 1
            candidate = "\(safe) \(number)"
        }
        return candidate
    }

    /// What an export of several lists did: each list's sub-folder and its counts.
    struct ListExport: Equatable, Sendable {
        var name: String
        var folder: String
        var tasks: Int
        var counts: ExportCounts
    }

    /// Writes each list of `list` into its sub-folder of `folder`: the one whose `displayname`
    /// names it, else a new one (`folderName`). A list without tasks gets its folder and
    /// `displayname` too, so that it travels. Files and folders of no list are left as they were.
    static func exportLists(
        _ list: TaskList, carried: CarriedFields = CarriedFields(), to folder: String, now: Date = Date()
    ) throws(StoreDocument.ExportFailure) -> [ListExport] {
        var done: [ListExport] = []
        do throws(FileSystem.Failure) {
            try prepare(folder)
            var byName: [String: String] = [:]
            var used = Set<String>()
            for sub in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                used.insert(sub)
                if let name = displayName(of: folder + "/" + sub), byName[name] == nil { byName[name] = sub }
            }
            for name in list.allListNames {
                let sub = byName[name] ?? folderName(for: name, avoiding: used)
                used.insert(sub)
                let path = folder + "/" + sub
                try prepare(path)
                if displayName(of: path) != name {
                    try FileSystem.writeAtomically(Array(name.utf8), to: path + "/" + displayNameFile)
                }
                let only = list.onlyList(name)
                let counts: ExportCounts
                do {
                    counts = try export(only, carried: carried, to: path, now: now)
                } catch {
                    throw FileSystem.Failure(reason: "\(sub): \(error.reason)")
                }
                done.append(ListExport(name: name, folder: sub, tasks: only.count, counts: counts))
            }
        } catch {
            throw StoreDocument.ExportFailure(reason: error.reason)
        }
        return done
    }

    /// The tasks of a vdir of several lists: the `.ics` files of each sub-folder (`subfolders`)
    /// with their list's name (its `displayname`, else the folder's name) as `list`, and those
    /// of the folder itself in the default list. Each sub-folder read as one calendar.
    static func listsBatch(from folder: String, subfolders: [String]) throws(DocumentError) -> ImportBatch {
        var parts: [(list: String, batch: ImportBatch)] = []
        if let own = try? files(in: folder), !own.isEmpty { parts.append(("", try batch(from: folder))) }
        var names: [String] = []
        for sub in subfolders {
            let path = folder + "/" + sub
            let name = displayName(of: path) ?? sub
            if let why = ListNameRule.check(name) {
                throw .invalid("the sub-folder \(sub) names the list \"\(name)\", which cannot be: \(why); change it in \(sub)/\(displayNameFile)")
            }
            if !names.contains(name) { names.append(name) }
            do {
                parts.append((name, try batch(from: path)))
            } catch {
                throw .invalid("the sub-folder \(sub): \(error)")
            }
        }
        var tasks: [TaskItem] = []
        var carried: [Int: String] = [:]
        var skipped = 0
        var losses = ImportLosses()
        losses.carriedFor = "iCalendar"
        for (name, part) in parts {
            for (position, record) in part.carried { carried[tasks.count + position] = record }
            tasks += part.tasks.map { task in
                var task = task
                task.list = name
                return task
            }
            skipped += part.skipped
            losses.add(part.losses)
        }
        var batch = ImportBatch(format: .iCalendar, tasks: tasks, skipped: skipped, losses: losses)
        batch.carried = carried
        batch.namedLists = ImportBatch.NamedLists(names: names, makesMissing: true)
        return batch
    }
}
