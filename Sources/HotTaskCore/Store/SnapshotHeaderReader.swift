import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// Reads only a snapshot's header: the keys before `"tasks"`, which the store writes first.
/// A command that only adds needs nothing else, so its cost does not grow with the list.
enum SnapshotHeaderReader {
    /// The header, or nil when the file's start is not a version 2 header as HotTask writes it
    /// (the caller then reads the whole file, which finds any problem).
    static func read(_ path: String) -> SnapshotHeader? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let bytes = Array(buffer[0..<count])
        let marker = Array(#""tasks": ["#.utf8)
        guard let start = bytes.firstRange(of: marker)?.lowerBound else { return nil }
        // The header's keys, closed as a document of their own.
        let prefix = Array(bytes[0..<start]) + Array(#""tasks": []}"#.utf8)
        guard case .object(let object)? = try? JSONParser.parse(prefix), case .number(2)? = object["version"],
            case .string(let generationText)? = object["generation"], let generation = Generation(generationText),
            case .string(let clockText)? = object["clock"], let clock = Clock(clockText),
            case .number(let countValue)? = object["count"], countValue >= 0,
            countValue <= Double(StoreLimits.tasks), countValue == countValue.rounded(),
            case .object(let topObject)? = object["top"]
        else { return nil }
        var top: [Section: OrderKey] = [:]
        for section in Section.allCases {
            switch topObject[section.rawValue] {
            case .null?: break
            case .string(let text)?:
                guard let key = OrderKey(text) else { return nil }
                top[section] = key
            default: return nil
            }
        }
        // Which log it folded: both keys or neither (an older HotTask's snapshot).
        var folds: FoldedLog?
        switch (object["follows"], object["folded"]) {
        case (nil, nil): break
        case (let follows?, .number(let records)?) where records >= 0 && records <= 1e9 && records == records.rounded():
            switch follows {
            case .null: folds = FoldedLog(generation: nil, records: Int(records))
            case .string(let text):
                guard let generation = Generation(text) else { return nil }
                folds = FoldedLog(generation: generation, records: Int(records))
            default: return nil
            }
        default: return nil
        }
        var lists = ListNames.initial
        if let value = object["lists"] {
            guard case .array(let items) = value else { return nil }
            let names = items.compactMap { item -> String? in if case .string(let name) = item { name } else { nil } }
            guard names.count == items.count, let stored = ListNames(stored: names) else { return nil }
            lists = stored
        }
        return SnapshotHeader(generation: generation, clock: clock, count: Int(countValue), top: top, folds: folds, lists: lists)
    }
}
