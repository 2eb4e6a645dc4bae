import FoundationEssentials
import Glibc
import Synchronization

/// A time zone read from the system's zoneinfo files (`/usr/share/zoneinfo`, RFC 8536), or a
/// fixed offset: what HotTask asks of a zone is the offset from UTC at an instant.
///
/// Foundation's essentials know fixed offsets only; its named zones come with ICU and its data,
/// which were most of HotTask's package (DECISIONS, Packaging). `ZoneInfoTests` compares this
/// with Foundation's `TimeZone` across zones and centuries.
public struct ZoneInfo: Sendable, Hashable, CustomStringConvertible {
    /// The zone's name ("Europe/Paris"; "GMT+0100" for a fixed offset).
    public let identifier: String
    private let rules: Rules

    /// The named zone, or nil when the system has no such zone. "UTC" and "GMT" need no file.
    public init?(identifier: String) {
        if let fixed = Self.fixedOffset(named: identifier) {
            self.init(identifier: identifier, rules: Rules(fixed: fixed))
            return
        }
        guard let rules = Self.rules(named: identifier) else { return nil }
        self.init(identifier: identifier, rules: rules)
    }

    /// A zone always `seconds` east of UTC; nil beyond ±18 hours (as Foundation's).
    public init?(secondsFromGMT seconds: Int) {
        guard abs(seconds) <= 18 * 3600 else { return nil }
        let minutes = abs(seconds) / 60
        let name = "GMT" + (seconds < 0 ? "-" : "+") + (minutes / 60).zeroPadded(2) + (minutes % 60).zeroPadded(2)
        self.init(identifier: seconds == 0 ? "GMT" : name, rules: Rules(fixed: seconds))
    }

    private init(identifier: String, rules: Rules) {
        self.identifier = identifier
        self.rules = rules
    }

    public static let utc = ZoneInfo(identifier: "UTC", rules: Rules(fixed: 0))

    /// The zone this process runs in: `TZ` (a name, `:name`, or a POSIX rule such as
    /// `CET-1CEST,M3.5.0,M10.5.0/3`), else the zone `/etc/localtime` links to (or
    /// `/etc/timezone` names), else `/etc/localtime`'s rules, else UTC.
    public static let current: ZoneInfo = current(environment: ProcessInfo.processInfo.environment)

    static func current(environment: [String: String]) -> ZoneInfo {
        if let value = environment["TZ"], !value.isEmpty {
            let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
            if let zone = ZoneInfo(identifier: name) { return zone }
            if let rule = PosixRule(name) { return ZoneInfo(identifier: name, rules: Rules(rule: rule)) }
            if name.hasPrefix("/"), let file = file(at: name) {
                return ZoneInfo(identifier: name.firstRange(of: "zoneinfo/").map { String(name[$0.upperBound...]) } ?? name, rules: Rules(file))
            }
            return .utc
        }
        if let target = linkTarget("/etc/localtime"), let range = target.firstRange(of: "zoneinfo/") {
            let name = String(target[range.upperBound...])
            if let zone = ZoneInfo(identifier: name) { return zone }
        }
        // A copy rather than a link: Debian's /etc/timezone names it.
        if let named = try? FileSystem.readAll("/etc/timezone", limit: 256),
            let zone = ZoneInfo(identifier: String(decoding: named, as: UTF8.self).trimmingBlanksAndNewlines())
        {
            return zone
        }
        if let file = file(at: "/etc/localtime") { return ZoneInfo(identifier: "localtime", rules: Rules(file)) }
        return .utc
    }

    /// The offset from UTC, in seconds, at `date`.
    public func secondsFromGMT(for date: Date = Date()) -> Int {
        rules.offset(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    public var description: String { identifier }

    public static func == (left: ZoneInfo, right: ZoneInfo) -> Bool { left.identifier == right.identifier }

    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// The zone file of a name (`VTimezone.folder`, `TZDIR` when set): nil for a name that is
    /// not one the folder may hold (letters, digits, `/_+-.`, no `..`, no leading `/`: never a
    /// path out of it) and for a file that is missing or not TZif.
    static func file(named name: String) -> TZif? {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(".."), name.utf8.count < 256,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.isAlphanumeric || "/_+-.".unicodeScalars.contains($0)) })
        else { return nil }
        return file(at: VTimezone.folder + "/" + name)
    }

    private static func file(at path: String) -> TZif? {
        (try? FileSystem.readAll(path, limit: 1 << 20)).flatMap(TZif.init)
    }

    /// Each name's rules, read once per process as Foundation's zones were (a repeating task's
    /// zone is asked for at every step); a thousand names at most are kept, so no file of
    /// made-up names grows it without end.
    private static func rules(named name: String) -> Rules? {
        if let known = loaded.withLock({ $0[name] }) { return known }
        let rules = file(named: name).map(Rules.init)
        loaded.withLock { if $0.count < 1000 { $0[name] = .some(rules) } }
        return rules
    }

    private static let loaded = Mutex<[String: Rules?]>([:])

    /// UTC and GMT, and GMT±H[H][:MM] or UTC±…, as ICU took them.
    private static func fixedOffset(named name: String) -> Int? {
        if ["UTC", "GMT", "Z", "Zulu", "Universal", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Etc/Zulu", "GMT0", "UCT"].contains(name) { return 0 }
        guard name.hasPrefix("GMT") || name.hasPrefix("UTC"), name.count > 4 else { return nil }
        let rest = name.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let parts = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let hours = Int(parts[0]), parts[0].count <= 2, hours <= 18 else { return nil }
        let minutes = parts.count == 2 ? Int(parts[1]) : 0
        guard let minutes, minutes < 60, parts.count == 1 || parts[1].count == 2 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Offsets from transitions, and the rule that goes on after the last.
    final class Rules: Sendable {
        /// Instants (seconds since 1970 UTC) at which the offset changes, ascending.
        let transitions: [Int64]
        /// The offset from each transition on.
        let offsets: [Int32]
        /// The offset before the first transition.
        let initial: Int32
        let rule: PosixRule?

        init(transitions: [Int64], offsets: [Int32], initial: Int32, rule: PosixRule?) {
            self.transitions = transitions
            self.offsets = offsets
            self.initial = initial
            self.rule = rule
        }

        convenience init(_ file: TZif) {
            self.init(
                transitions: file.transitions.map(\.time), offsets: file.transitions.map { file.types[$0.type].offset },
                initial: file.types[file.initialType].offset, rule: file.footer.flatMap(PosixRule.init))
        }

        convenience init(fixed: Int) { self.init(transitions: [], offsets: [], initial: Int32(fixed), rule: nil) }

        convenience init(rule: PosixRule) { self.init(transitions: [], offsets: [], initial: rule.std.offset, rule: rule) }

        func offset(at instant: Int64) -> Int {
            if let last = transitions.last, instant >= last {
                return rule?.offset(at: instant) ?? Int(offsets[offsets.count - 1])
            }
            if transitions.isEmpty { return rule?.offset(at: instant) ?? Int(initial) }
            var low = 0
            var high = transitions.count
            while low < high {
                let middle = (low + high) / 2
                if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
            }
            return Int(low == 0 ? initial : offsets[low - 1])
        }
    }
}

extension PosixRule {
    /// The offset the rule gives at `instant`.
    func offset(at instant: Int64) -> Int {
        guard let dst, let toDST, let toStd else { return Int(std.offset) }
        let (year, _, _) = Timestamp.civilDate(fromDays: DateWords.day(ofSeconds: instant + Int64(std.offset)))
        guard let begins = time(of: toDST, year: year, from: std.offset), let ends = time(of: toStd, year: year, from: dst.offset) else {
            return Int(std.offset)
        }
        let inDaylight = begins < ends ? instant >= begins && instant < ends : instant >= begins || instant < ends
        return Int(inDaylight ? dst.offset : std.offset)
    }
}
