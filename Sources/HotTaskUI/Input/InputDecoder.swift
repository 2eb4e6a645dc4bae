import HotTaskCore
import HotTaskSettings

/// A terminal's reply to a query HotTask sent at start.
public enum TerminalReport: Equatable, Sendable {
    /// OSC 11: the background colour.
    case background(RGB)
    /// The primary device attributes (DA1), which every terminal sends: asked after OSC 11,
    /// its reply says that no background reply is coming.
    case deviceAttributes
}

/// Turns what the terminal sends, one Unicode scalar at a time, into events.
///
/// The terminal adapter reads characters with ncurses' keypad translation off and hands every
/// one to this decoder, so that keys are understood the same whatever `TERM` says: the xterm
/// forms with modifiers (`CSI 1;5D` is Ctrl-←, `CSI 3;2~` Shift-Delete), SS3 (`ESC O A`), the
/// rxvt and Linux console variants, Alt-letter (`ESC b`), the mouse wheel (SGR and X10), and
/// bracketed paste (`CSI 200~` … `CSI 201~`), which arrives as one `.pasted` event and never
/// as keys. A sequence nobody knows is consumed whole and dropped: nothing of it is typed.
///
/// Pure and synchronous: the adapter asks `pendingTimeout` how long to wait for the next
/// scalar and calls `timedOut()` when nothing came (an Esc key alone, a cut-short sequence).
public struct InputDecoder: Sendable {
    enum Phase: Equatable, Sendable {
        case ground
        /// ESC was read; the next scalar decides what it starts.
        case escape
        /// `ESC [` and the parameter and intermediate bytes so far.
        case csi(String)
        /// `ESC O` and any parameter bytes so far.
        case ss3(String)
        /// `ESC [ [` (the Linux console's F1–F5).
        case linuxFunction
        /// `ESC [ M` and the X10 mouse report's bytes so far (three follow).
        case x10Mouse([UInt32])
        /// A sequence too long to be a key: read to its final byte and dropped.
        case discard
        /// An OSC, DCS, SOS, PM or APC string (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` or
        /// their 8-bit forms): terminal replies such as `ESC ] 11 ; rgb:… ESC \`, read to their
        /// terminator (ST, BEL) and dropped. `length` counts what was read; `escape` is true
        /// right after an ESC inside it (`ESC \` is ST).
        case controlString(introducer: Unicode.Scalar, length: Int, escape: Bool)
        /// Inside a bracketed paste: everything until `ESC [ 2 0 1 ~` is text.
        case paste
        /// The end marker was read. What arrives within `pasteSettleWindow` came with the
        /// paste (no person types that fast): a marker inside the pasted text ended nothing,
        /// so the paste goes on and nothing after the marker becomes a key.
        case pasteEnding
    }

    var phase = Phase.ground
    var pasted: [Unicode.Scalar] = []
    /// The text of the OSC string being read (the first `maximumReportLength` scalars): a reply
    /// HotTask asked for is read from it.
    var controlText: [Unicode.Scalar] = []
    /// Replies to HotTask's own queries, read and not taken yet (`takeReports`).
    var reports: [TerminalReport] = []
    /// How many scalars of the end marker were just read (the marker may be cut by a read).
    var endMarkerMatched = 0
    /// The paste was longer than `maximumPasteLength`: the rest was read and dropped.
    var pasteCut = false

    /// The longest sequence accepted; longer ones are garbage and dropped.
    static let maximumSequenceLength = 32
    /// A paste is kept up to this many scalars; the rest is read and dropped (the caption rule
    /// would refuse far less anyway).
    static let maximumPasteLength = 64 * 1024
    static let pasteEnd: [Unicode.Scalar] = ["\u{1B}", "[", "2", "0", "1", "~"]
    /// How long after an end marker more bytes still count as the same paste, in ms. A
    /// terminal writes a paste in one burst; tmux's pieces follow each other within a few ms.
    static let pasteSettleWindow = 50

    /// How long an ESC waits for the rest of a sequence, in ms: `ESCDELAY` as ncurses reads
    /// it, or `defaultEscapeDelay`. Longer, and Esc followed quickly by a key reads as Alt;
    /// shorter, and a sequence split by a slow link (ssh) leaks its tail as typed text.
    public let escapeDelay: Int
    public static let defaultEscapeDelay = 50

    public init(escapeDelay: Int = InputDecoder.defaultEscapeDelay) {
        self.escapeDelay = escapeDelay
    }

    /// The window `ESCDELAY` asks for (whole milliseconds, 0 to 10,000); the default when it
    /// is unset or not a number, as ncurses does.
    public static func escapeDelay(environment: [String: String]) -> Int {
        guard let text = environment["ESCDELAY"], let milliseconds = Int(text), milliseconds >= 0 else {
            return defaultEscapeDelay
        }
        return min(milliseconds, 10_000)
    }

    /// How long the adapter should wait for the next scalar before calling `timedOut()`, in
    /// milliseconds; nil when nothing is pending and it may wait as long as it likes. An Esc
    /// key alone is told from the start of a sequence by this short pause, as ncurses'
    /// ESCDELAY does; a paste may pause longer between chunks.
    public var pendingTimeout: Int? {
        switch phase {
        case .ground: nil
        case .paste: 1_000
        case .pasteEnding: Self.pasteSettleWindow
        default: escapeDelay
        }
    }

    /// Feeds one scalar; returns the events it completes (often none, while a sequence is read).
    public mutating func feed(_ scalar: Unicode.Scalar) -> [Event] {
        switch phase {
        case .ground:
            return ground(scalar)
        case .escape:
            return afterEscape(scalar)
        case .csi(let body):
            return csi(body, scalar)
        case .ss3(let body):
            return ss3(body, scalar)
        case .linuxFunction:
            phase = .ground
            guard ("A"..."E").contains(scalar) else { return [] }
            return [.keyPressed(.function(Int(scalar.value - 0x40)))]
        case .x10Mouse(var bytes):
            bytes.append(scalar.value)
            guard bytes.count == 3 else {
                phase = .x10Mouse(bytes)
                return []
            }
            phase = .ground
            // Each byte is 32 plus the value; columns and rows count from 1.
            return Self.mouse(button: Int(bytes[0]) - 32, column: Int(bytes[1]) - 33, row: Int(bytes[2]) - 33, press: true)
        case .discard:
            switch scalar.value {
            case 0x20...0x3F: return []
            case 0x40...0x7E:
                phase = .ground
                return []
            default:
                phase = .ground
                return ground(scalar)
            }
        case .controlString(let introducer, let length, let escape):
            return controlString(introducer, length, escape, scalar)
        case .paste:
            return paste(scalar)
        case .pasteEnding:
            // Came in the same burst as the end marker: the marker was pasted text (dropped,
            // as every escape sequence in a paste is) and the paste goes on.
            phase = .paste
            return paste(scalar)
        }
    }

    /// Feeds a block of scalars; inside a paste, runs without ESC are taken whole (a
    /// megabyte paste must not cost a call per scalar).
    public mutating func feed(contentsOf scalars: String.UnicodeScalarView) -> [Event] {
        var events: [Event] = []
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if phase == .paste, endMarkerMatched == 0, scalars[index] != "\u{1B}" {
                let stop = scalars[index...].firstIndex(of: "\u{1B}") ?? scalars.endIndex
                let room = Self.maximumPasteLength - pasted.count
                var taken = 0
                var end = index
                while end < stop, taken < room {
                    scalars.formIndex(after: &end)
                    taken += 1
                }
                pasted.append(contentsOf: scalars[index..<end])
                if end < stop { pasteCut = true }
                index = stop
                continue
            }
            events += feed(scalars[index])
            scalars.formIndex(after: &index)
        }
        return events
    }

    /// The replies to queries read since the last call (never keys or text).
    public mutating func takeReports() -> [TerminalReport] {
        defer { reports = [] }
        return reports
    }

    /// True inside a bracketed paste (the adapter then reads in large blocks: a paste can be
    /// megabytes).
    public var isReadingPaste: Bool { phase == .paste || phase == .pasteEnding }

    /// Nothing came within `pendingTimeout`: an ESC alone is the Esc key; a cut-short sequence
    /// is dropped; a paste that never ended is taken as it is.
    public mutating func timedOut() -> [Event] {
        defer { phase = .ground }
        switch phase {
        case .escape: return [.keyPressed(.escape)]
        case .controlString(let introducer, 0, false) where introducer.isASCII:
            // `ESC ]` and nothing after it: Alt-], not the start of a reply.
            return [.keyPressed(.alt(Character(introducer)))]
        case .paste, .pasteEnding: return finishPaste()
        default: return []
        }
    }

    // MARK: Plain characters

    mutating func ground(_ scalar: Unicode.Scalar) -> [Event] {
        switch scalar.value {
        case 0x1B:
            phase = .escape
            return []
        case 0x09: return [.keyPressed(.tab)]
        case 0x0A, 0x0D: return [.keyPressed(.enter)]
        case 0x08, 0x7F: return [.keyPressed(.backspace)]
        case 0x01...0x1A: return [.keyPressed(.control(Character(Unicode.Scalar(UInt8(scalar.value) + 0x60))))]
        case 0x1F: return [.keyPressed(.control("_"))]  // Ctrl-_ (and Ctrl-/ in most terminals): undo
        // 8-bit forms of the sequences: CSI, SS3, and the strings (DCS, SOS, OSC, PM, APC).
        case 0x9B:
            phase = .csi("")
            return []
        case 0x8F:
            phase = .ss3("")
            return []
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
            phase = .controlString(introducer: scalar, length: 0, escape: false)
            controlText = []
            return []
        case 0x00...0x1F, 0x80...0x9F: return []  // other C0 and C1 controls mean nothing here
        default: return [.keyPressed(.character(Character(scalar)))]
        }
    }

    private mutating func afterEscape(_ scalar: Unicode.Scalar) -> [Event] {
        switch scalar {
        case "[":
            phase = .csi("")
            return []
        case "O":
            phase = .ss3("")
            return []
        case "]", "P", "X", "^", "_":
            phase = .controlString(introducer: scalar, length: 0, escape: false)
            controlText = []
            return []
        case "\u{1B}":
            // Esc pressed twice: the first is a key, the second may start a sequence.
            phase = .escape
            return [.keyPressed(.escape)]
        case "\u{7F}", "\u{08}":
            phase = .ground
            return [.keyPressed(.altBackspace)]
        default:
            phase = .ground
            // Alt (Meta) with a printable character. Alt with a control key means nothing, so
            // this is Esc followed quickly by another key (Esc, Tab): both count.
            guard scalar.value >= 0x20, scalar.value != 0x7F, !(0x80...0x9F).contains(scalar.value) else {
                return [.keyPressed(.escape)] + ground(scalar)
            }
            return [.keyPressed(.alt(Character(scalar)))]
        }
    }
}
