import HotTaskCore

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
    private enum Phase: Equatable, Sendable {
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

    private var phase = Phase.ground
    private var pasted: [Unicode.Scalar] = []
    /// How many scalars of the end marker were just read (the marker may be cut by a read).
    private var endMarkerMatched = 0
    /// The paste was longer than `maximumPasteLength`: the rest was read and dropped.
    private var pasteCut = false

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

    private mutating func ground(_ scalar: Unicode.Scalar) -> [Event] {
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

    // MARK: Sequences

    private mutating func csi(_ body: String, _ scalar: Unicode.Scalar) -> [Event] {
        let value = scalar.value
        switch value {
        case 0x5B where body.isEmpty:  // ESC [ [
            phase = .linuxFunction
            return []
        case 0x24 where !body.isEmpty && body.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }):
            // rxvt's Shift form (`CSI 3 $` is Shift-Delete): a final here, not an intermediate.
            phase = .ground
            return dispatchCSI(body, final: scalar)
        case 0x20...0x3F:  // parameter and intermediate bytes
            guard body.unicodeScalars.count < Self.maximumSequenceLength else {
                phase = .discard
                return []
            }
            phase = .csi(body + String(Character(scalar)))
            return []
        case 0x40...0x7E:  // the final byte
            phase = .ground
            if body.isEmpty, scalar == "M" {
                phase = .x10Mouse([])
                return []
            }
            return dispatchCSI(body, final: scalar)
        default:
            // Not part of any sequence: the sequence was cut short. Drop it, and read this
            // scalar as itself (a key pressed after a lost byte must still work).
            phase = .ground
            return ground(scalar)
        }
    }

    /// Inside a control string: everything up to its terminator is dropped, nothing typed.
    private mutating func controlString(_ introducer: Unicode.Scalar, _ length: Int, _ escape: Bool, _ scalar: Unicode.Scalar) -> [Event] {
        if escape {
            phase = .ground
            if scalar == "\\" { return [] }  // ESC \ is the string terminator
            // Any other ESC ends the string and starts a sequence of its own.
            phase = .escape
            return feed(scalar)
        }
        switch scalar.value {
        case 0x1B:
            phase = .controlString(introducer: introducer, length: length, escape: true)
        case 0x07, 0x9C, 0x18, 0x1A:  // BEL (xterm's OSC end), ST; CAN and SUB cancel
            phase = .ground
        default:
            phase = .controlString(introducer: introducer, length: length + 1, escape: false)
        }
        return []
    }

    private mutating func ss3(_ body: String, _ scalar: Unicode.Scalar) -> [Event] {
        switch scalar.value {
        case 0x30...0x3F where body.unicodeScalars.count < 8:
            phase = .ss3(body + String(Character(scalar)))
            return []
        case 0x40...0x7E:
            phase = .ground
            let modifier = Int(body.split(separator: ";").last ?? "") ?? 1
            let key = body.isEmpty ? SequenceKeys.rxvt(scalar, control: true) : nil
            return (key ?? SequenceKeys.final(scalar, modifier: modifier)).map { [.keyPressed($0)] } ?? []
        default:
            phase = .ground
            return ground(scalar)
        }
    }

    private mutating func dispatchCSI(_ body: String, final: Unicode.Scalar) -> [Event] {
        if body.hasPrefix("<") {
            // SGR mouse: CSI < button ; column ; row M (press) or m (release).
            let fields = body.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            guard fields.count == 3, let button = fields[0], let column = fields[1], let row = fields[2] else { return [] }
            return Self.mouse(button: button, column: column - 1, row: row - 1, press: final == "M")
        }
        // Other private forms (CSI ? …, CSI > …) are answers to queries nobody asked: drop.
        guard body.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == ";" || $0 == ":" }) else { return [] }
        // Parameters, each with its `:` sub-parameters (the kitty protocol's shifted key and
        // event type).
        let fields = body.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        }
        let first = fields.first?.first.flatMap { $0 }
        let modifier = fields.count > 1 ? (fields[1].first.flatMap { $0 } ?? 1) : 1
        // A key's release (event type 3) or repeat is reported only when asked for; a release is not a press.
        if fields.count > 1, fields[1].count > 1, fields[1][1] == 3 { return [] }
        if final == "u", let code = first {
            let shifted = fields[0].count > 1 ? fields[0][1] : nil
            return SequenceKeys.text(code: code, shifted: shifted, modifier: modifier).map { [.keyPressed($0)] } ?? []
        }
        if final == "~", first == 27, fields.count > 2, let code = fields[2].first.flatMap({ $0 }) {
            return SequenceKeys.text(code: code, modifier: modifier).map { [.keyPressed($0)] } ?? []  // modifyOtherKeys
        }
        if let rxvtModifier = SequenceKeys.rxvtModifier(final), let number = first, fields.count == 1 {
            return SequenceKeys.tilde(number, modifier: rxvtModifier).map { [.keyPressed($0)] } ?? []
        }
        if body.isEmpty, let key = SequenceKeys.rxvt(final, control: false) { return [.keyPressed(key)] }
        if final == "~" {
            switch first {
            case 200?:
                phase = .paste
                pasted.removeAll()
                endMarkerMatched = 0
                pasteCut = false
                return []
            case let number?: return SequenceKeys.tilde(number, modifier: modifier).map { [.keyPressed($0)] } ?? []
            case nil: return []
            }
        }
        if final == "Z" { return [.keyPressed(.backTab)] }
        // Keys by final byte carry no number or 1 (`CSI 1;5D`); anything else is a report
        // (`CSI 12;40R` is where the cursor is, not F3).
        guard first == nil || first == 1 else { return [] }
        return SequenceKeys.final(final, modifier: modifier).map { [.keyPressed($0)] } ?? []
    }

    /// A mouse report: 64 and 65 (plus modifier bits) are the wheel; 0 pressed is a click of
    /// the left button (at a 0-based column and row). Releases, drags (32), other buttons
    /// and clicks with Shift, Alt or Ctrl (4, 8, 16) mean nothing here.
    private static func mouse(button: Int, column: Int, row: Int, press: Bool) -> [Event] {
        guard press, button & 128 == 0 else { return [] }
        if button & 64 != 0 {
            switch button & 3 {
            case 0: return [.wheelScrolled(lines: -3)]
            case 1: return [.wheelScrolled(lines: 3)]
            default: return []
            }
        }
        guard button == 0, column >= 0, row >= 0 else { return [] }
        return [.clicked(column: column, row: row)]
    }

    // MARK: Bracketed paste

    private mutating func paste(_ scalar: Unicode.Scalar) -> [Event] {
        if scalar == Self.pasteEnd[endMarkerMatched] {
            endMarkerMatched += 1
            guard endMarkerMatched == Self.pasteEnd.count else { return [] }
            // Whether this ends the paste is known only when nothing follows at once.
            endMarkerMatched = 0
            phase = .pasteEnding
            return []
        }
        // Not the marker after all: what looked like its start is text. Only ESC starts it,
        // and ESC appears nowhere else in it, so a new match can begin only here.
        for matched in Self.pasteEnd.prefix(endMarkerMatched) { keep(matched) }
        endMarkerMatched = 0
        if scalar == Self.pasteEnd[0] {
            endMarkerMatched = 1
        } else {
            keep(scalar)
        }
        return []
    }

    private mutating func keep(_ scalar: Unicode.Scalar) {
        if pasted.count < Self.maximumPasteLength {
            pasted.append(scalar)
        } else {
            pasteCut = true
        }
    }

    private mutating func finishPaste() -> [Event] {
        for matched in Self.pasteEnd.prefix(endMarkerMatched) { keep(matched) }
        endMarkerMatched = 0
        let text = EscapeSequences.removed(from: pasted)
        let cut = pasteCut
        pasted.removeAll()
        pasteCut = false
        return text.isEmpty && !cut ? [] : [.pasted(text, cut: cut)]
    }
}
