import FoundationEssentials
import Glibc

/// Whether a caption matches the filter text, and where: the rule the UI's filter (`/`) and
/// `--list --filter` share (what is typed and shown stays in the UI's `ListView`). Both are
/// folded first: Unicode case folding with compatibility normalization (NFKC) and accents
/// removed, so `cafe` finds "Café", `strasse` finds "Straße", `file` finds "ﬁle" and
/// full-width letters match half-width ones.
///
/// Folding goes scalar by scalar: ASCII by a byte table, any other scalar through Foundation
/// once and then from a cache (a list holds a few thousand distinct scalars at most), so a
/// caption folds at about the cost of copying it. `ListView` keeps each task's folded caption,
/// made once when the list loads or the task changes, and a filter keystroke only searches
/// bytes; whole-string Foundation folding cost 8 µs a caption, 0.2 s for 25,000 of them.
public enum TaskFilter {
    /// `text` folded for matching (NFKC, case folded, without accents), as UTF-8 bytes.
    package static func foldedBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var isASCII = true
        for byte in text.utf8 {
            guard byte < 0x80 else {
                isASCII = false
                break
            }
            out.append(lower(byte))
        }
        if isASCII { return out }
        out.removeAll(keepingCapacity: true)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.append(lower(UInt8(scalar.value)))
            } else {
                ScalarFolds.append(scalar, to: &out)
            }
        }
        return out
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// What a filter's text asks, word by word: `+tag` (a task with that tag) and `-tag`
    /// (without it; `@context` and `-@context` for a todo.txt context), `due:today`,
    /// `due:overdue`, `due:week`, `due:none` and `due:YYYY-MM-DD` (due that local day, the app's
    /// calendar's Enter); every other word is free text, matched in the
    /// caption as the filter always did (a query with no such word is free text whole, its
    /// spaces included). `\+word`, `\-word`, `\@word` and `\due:…` are free text.
    public struct Query: Equatable, Sendable {
        /// The free text, to find in captions.
        public private(set) var text: String
        /// Tags the task must have, and must not (as written, without `+`).
        public private(set) var withTags: [String] = []
        public private(set) var withoutTags: [String] = []
        public private(set) var due: Due?
        /// `due:YYYY-MM-DD`: due on that local day (days since 1970-01-01).
        public private(set) var dueDay: Int?
        /// `list:NAME`: only tasks in that list (a name with spaces written with `_` for them).
        public private(set) var list: String?
        /// A `due:` word that is none of the forms (free text in the UI; `--filter` refuses it).
        public private(set) var unknownDue: String?

        public enum Due: String, CaseIterable, Sendable {
            /// Due today (any time of it).
            case today
            /// Open, and its day (or time) has passed.
            case overdue
            /// Due within the next seven days, today included, or open and overdue.
            case week
            /// No due date.
            case none
        }

        /// The forms, as messages and the help list them.
        public static let dueForms = "due:today, due:overdue, due:week, due:none or due:YYYY-MM-DD"

        public init(_ query: String) {
            text = query
            guard query.contains(where: { $0 == "+" || $0 == "-" || $0 == "@" || $0 == ":" || $0 == "\\" }) else { return }
            var words: [Substring] = []
            var special = false
            for word in query.split(separator: " ", omittingEmptySubsequences: false) {
                if word.hasPrefix("+"), let name = Self.tagName(word.dropFirst()) {
                    withTags.append(name)
                } else if word.hasPrefix("@"), let name = Self.tagName(word) {
                    withTags.append(name)
                } else if word.hasPrefix("-"), let name = Self.tagName(word.dropFirst()) {
                    withoutTags.append(name)
                } else if word.lowercased().hasPrefix("list:"), word.count > 5 {
                    list = String(word.dropFirst(5))
                } else if word.lowercased().hasPrefix("due:"), word.count > 4 {
                    if let form = Due(rawValue: word.dropFirst(4).lowercased()) {
                        due = form
                    } else if let day = Self.day(word.dropFirst(4)) {
                        dueDay = day
                    } else {
                        unknownDue = unknownDue ?? String(word)
                        words.append(word)
                        continue
                    }
                } else if word.hasPrefix("\\"), word.count > 1, "+-@d".contains(word.dropFirst().first ?? " ") {
                    words.append(word.dropFirst())
                    special = true
                    continue
                } else {
                    words.append(word)
                    continue
                }
                special = true
            }
            if special {
                text = words.filter { !$0.isEmpty }.joined(separator: " ")
                isPlainText = false
            }
        }

        /// The tag a word names after its `+` or `-`: `work`, or a context with its `@`.
        private static func tagName(_ name: Substring) -> String? {
            if name.hasPrefix("@") { return TagRule.isTagName(name.dropFirst()) ? String(name) : nil }
            return TagRule.isTagName(name) ? String(name) : nil
        }

        /// `YYYY-MM-DD` as days since 1970-01-01; nil for anything else (or a date that does not exist).
        static func day(_ text: Substring) -> Int? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let year = Int(parts[0]), let month = Int(parts[1]), let date = Int(parts[2]),
                (1...12).contains(month), date >= 1, date <= Timestamp.daysIn(month: month, year: year)
            else { return nil }
            return Timestamp.daysFromCivil(year: year, month: month, day: date)
        }

        /// Only free text: the query as typed.
        public private(set) var isPlainText = true

        public var isEmpty: Bool { text.isEmpty && withTags.isEmpty && withoutTags.isEmpty && due == nil && dueDay == nil && list == nil }
    }

    /// A query folded once for a scan of many tasks (the UI's filter, `--list --filter`).
    public struct Matcher: Sendable {
        private let needle: [UInt8]
        private let withTags: [[UInt8]]
        private let withoutTags: [[UInt8]]
        private let due: Query.Due?
        private let dueDay: Int?
        private let dates: DueDisplay
        /// `list:NAME`: what the tasks of that list store (`ListNames.stored`); none when no list
        /// has that name (then no task matches).
        private let wantedList: String??
        /// The one list shown (the app's current list), as its tasks store it; nil for all.
        private let onlyStored: String?
        /// Whether a task's tags or due date decide too, beyond its caption.
        package let looksAtTasks: Bool

        public init(_ query: String, dates: DueDisplay, lists: ListNames) {
            self.init(Query(query), dates: dates, lists: lists)
        }

        /// `lists`: the store's, which say what `list:NAME` matches (any list a task names also
        /// matches by name).
        public init(_ query: Query, dates: DueDisplay, lists: ListNames, onlyStored: String? = nil) {
            self.onlyStored = onlyStored
            // As written first (a name may hold `_`), then with `_` for its spaces.
            wantedList = query.list.map { typed in
                let spaced = typed.replacing("_", with: " ")
                let name =
                    [typed, spaced].lazy.compactMap { form in
                        lists.names.first { TaskFilter.foldedBytes($0) == TaskFilter.foldedBytes(form) }
                    }.first ?? spaced
                return lists.stored(for: name)
            }
            needle = foldedBytes(query.text)
            withTags = query.withTags.map(TaskFilter.foldedTag)
            withoutTags = query.withoutTags.map(TaskFilter.foldedTag)
            due = query.due
            dueDay = query.dueDay
            self.dates = dates
            looksAtTasks =
                !withTags.isEmpty || !withoutTags.isEmpty || due != nil || dueDay != nil || wantedList != nil || onlyStored != nil
        }

        /// Whether `folded` (a caption already folded by `foldedBytes`) contains the free text.
        package func matches(folded: UnsafeBufferPointer<UInt8>) -> Bool {
            needle.isEmpty || Self.contains(folded, needle)
        }

        /// Whether the free text is in `caption`.
        public func matches(caption: String) -> Bool {
            foldedBytes(caption).withUnsafeBufferPointer { matches(folded: $0) }
        }

        /// Whether `task` has the tags asked for, none of those excluded, and the due date asked.
        public func matchesTagsAndDue(_ task: TaskItem) -> Bool {
            guard looksAtTasks else { return true }
            if let onlyStored, task.list != onlyStored { return false }
            // Compared as stored: the name was matched (case and accents ignored) once, above.
            if let wantedList, let stored = wantedList, task.list != stored { return false }
            if !withTags.isEmpty || !withoutTags.isEmpty {
                let tags = task.tags
                if tags.isEmpty {
                    guard withTags.isEmpty else { return false }
                } else {
                    // Compared in place, no tag folded into an array of its own: this runs for
                    // every task at each key of the filter.
                    for wanted in withTags where !tags.contains(where: { TaskFilter.tag($0, foldsTo: wanted) }) { return false }
                    for unwanted in withoutTags where tags.contains(where: { TaskFilter.tag($0, foldsTo: unwanted) }) { return false }
                }
            }
            if let dueDay {
                // Its local day is within a day of its wall-clock day: only those are read exactly
                // (a time in a named zone costs the zone's offset lookups).
                guard let date = task.due, abs(Int(date.wallSeconds / 86_400) - dueDay) <= 2, dates.localDay(date) == dueDay else {
                    return false
                }
            }
            guard let due else { return true }
            switch due {
            case .none: return task.due == nil
            case .today: return task.due.map { dates.localDay($0) == dates.today } ?? false
            case .overdue: return !task.completed && dates.isOverdue(task.due)
            case .week:
                guard let date = task.due else { return false }
                let day = dates.localDay(date)
                return (day >= dates.today && day <= dates.today + 6) || (!task.completed && dates.standing(date) == .overdue)
            }
        }

        /// The whole query on one task: its caption, tags and due date.
        public func matches(_ task: TaskItem) -> Bool {
            matchesTagsAndDue(task) && (needle.isEmpty || matches(caption: task.caption))
        }

        private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
            let count = needle.count
            guard haystack.count >= count, let first = needle.first else { return haystack.count >= count }
            var start = 0
            let last = haystack.count - count
            while start <= last {
                if haystack[start] == first {
                    var offset = 1
                    while offset < count, haystack[start + offset] == needle[offset] { offset += 1 }
                    if offset == count { return true }
                }
                start += 1
            }
            return false
        }
    }

    /// A tag folded for the filter: as a caption is, a space as `_` (a calendar's category
    /// "Grocery list" is `+grocery_list`).
    static func foldedTag(_ tag: String) -> [UInt8] {
        foldedBytes(tag.contains(" ") ? tag.replacing(" ", with: "_") : tag)
    }

    /// Whether `tag` folds to `folded` (`foldedTag(tag) == folded`), an ASCII tag compared
    /// byte by byte without making its folded form.
    static func tag(_ tag: String, foldsTo folded: [UInt8]) -> Bool {
        if let same = tag.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
            guard bytes.count == folded.count else { return bytes.contains { $0 >= 0x80 } ? nil : false }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x80 else { return nil }
                if (byte == 0x20 ? 0x5F : lower(byte)) != folded[index] { return false }
            }
            return true
        }), let same {
            return same
        }
        return foldedTag(tag) == folded
    }

    /// True when every caption that matches `query` also matches `previous`, so the previous
    /// result can be narrowed instead of scanning the whole list (the folded text only grew).
    package static func narrows(_ query: String, from previous: String) -> Bool {
        // A query with tags or a due date is scanned again: `+wo` → `+work` asks for another tag.
        !previous.isEmpty && Query(previous).isPlainText && Query(query).isPlainText
            && foldedBytes(query).starts(with: foldedBytes(previous))
    }

    /// Every match of `query` in `text`, for highlighting (only rows on screen ask): the
    /// characters whose folded form takes part in a match of the folded query.
    package static func matchRanges(of query: String, in text: String) -> [Range<String.Index>] {
        let needle = foldedBytes(Query(query).text)
        guard !needle.isEmpty else { return [] }
        var folded: [UInt8] = []
        var owners: [String.Index] = []  // the character each folded byte comes from
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let bytes = foldedBytes(String(text[index..<next]))
            folded += bytes
            owners += repeatElement(index, count: bytes.count)
            index = next
        }
        var ranges: [Range<String.Index>] = []
        var start = 0
        while start + needle.count <= folded.count {
            if folded[start..<(start + needle.count)].elementsEqual(needle) {
                let lower = owners[start]
                let upper = text.index(after: owners[start + needle.count - 1])
                if let last = ranges.last, last.upperBound > lower {
                    ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, upper)
                } else {
                    ranges.append(lower..<upper)
                }
                start += needle.count
            } else {
                start += 1
            }
        }
        return ranges
    }
}

/// Each non-ASCII scalar's fold: compatibility composition, then case, diacritics and width
/// folded away, as the full Foundation folds (`ScalarFoldTable.swift`, made from it).
enum ScalarFolds {
    /// Appends the fold of `scalar` (its UTF-8 bytes when it folds to itself).
    static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        // A combining accent on its own (after a letter typed without it) is dropped, as
        // Foundation drops it from a whole string; on its own Foundation would keep it.
        if scalar.properties.generalCategory == .nonspacingMark, scalar.properties.canonicalCombiningClass.rawValue != 0 { return }
        if let place = folds.index[scalar.value] {
            let start = Int(place >> 8)
            out.append(contentsOf: folds.bytes[start..<(start + Int(place & 0xFF))])
        } else {
            UTF8.encode(scalar) { out.append($0) }
        }
    }

    static func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
        var out: [UInt8] = []
        append(scalar, to: &out)
        return out
    }

    /// The table read once, on the first filter that needs it: each folded scalar's place in
    /// `bytes` (start << 8 | length), read straight from the table's UTF-8.
    private static let folds: (index: [UInt32: UInt32], bytes: [UInt8]) = {
        var index: [UInt32: UInt32] = [:]
        index.reserveCapacity(8192)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16_384)
        var key: UInt32 = 0
        var value: UInt32 = 0
        var start = 0
        var inValue = false
        var hasDigit = false
        func endScalar() {
            if hasDigit, let scalar = Unicode.Scalar(value) { UTF8.encode(scalar) { bytes.append($0) } }
            value = 0
            hasDigit = false
        }
        for byte in table.utf8 {
            let digit: UInt32? =
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
                default: nil
                }
            if let digit {
                if inValue { value = value << 4 | digit } else { key = key << 4 | digit }
                hasDigit = true
                continue
            }
            switch byte {
            case UInt8(ascii: "="):
                (inValue, hasDigit, value, start) = (true, false, 0, bytes.count)
            case UInt8(ascii: " ") where inValue:
                endScalar()
            case UInt8(ascii: ";"):
                endScalar()
                index[key] = UInt32(start) << 8 | UInt32(bytes.count - start)
                (key, inValue) = (0, false)
            default: break  // line breaks and indentation
            }
        }
        return (index, bytes)
    }()
}
