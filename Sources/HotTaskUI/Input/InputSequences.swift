import HotTaskSettings

/// The escape sequences `InputDecoder` reads after ESC (or an 8-bit introducer): CSI and SS3
/// keys with their modifiers, the Linux console's F1–F5, mouse reports, and the control strings
/// (OSC, DCS, …) that are read to their end and dropped.
extension InputDecoder {
    mutating func csi(_ body: String, _ scalar: Unicode.Scalar) -> [Event] {
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
    mutating func controlString(_ introducer: Unicode.Scalar, _ length: Int, _ escape: Bool, _ scalar: Unicode.Scalar) -> [Event] {
        let isOSC = introducer == "]" || introducer.value == 0x9D
        if escape {
            phase = .ground
            if scalar == "\\" {  // ESC \ is the string terminator
                if isOSC { readReply() }
                return []
            }
            // Any other ESC ends the string and starts a sequence of its own.
            phase = .escape
            return feed(scalar)
        }
        switch scalar.value {
        case 0x1B:
            phase = .controlString(introducer: introducer, length: length, escape: true)
        case 0x07, 0x9C:  // BEL (xterm's OSC end), ST
            phase = .ground
            if isOSC { readReply() }
        case 0x18, 0x1A:  // CAN and SUB cancel
            phase = .ground
        default:
            if isOSC, controlText.count < Self.maximumReportLength { controlText.append(scalar) }
            phase = .controlString(introducer: introducer, length: length + 1, escape: false)
        }
        return []
    }

    /// The longest OSC reply read for its text (`11;rgb:ffff/ffff/ffff` is 22).
    static let maximumReportLength = 64

    /// An OSC string just ended: the background colour (`11;rgb:RRRR/GGGG/BBBB`, 1 to 4 hex
    /// digits a channel) is a report; anything else was dropped, as before.
    private mutating func readReply() {
        let text = String(String.UnicodeScalarView(controlText))
        controlText = []
        guard text.hasPrefix("11;rgb:") || text.hasPrefix("11;rgba:") else { return }
        let channels = text.drop { $0 != ":" }.dropFirst().split(separator: "/").prefix(3)
        let values = channels.compactMap { channel -> UInt8? in
            guard (1...4).contains(channel.count), let value = UInt32(channel, radix: 16) else { return nil }
            let maximum = (UInt32(1) << (4 * UInt32(channel.count))) - 1
            return UInt8((value * 255 + maximum / 2) / maximum)
        }
        guard values.count == 3 else { return }
        reports.append(.background(RGB(values[0], values[1], values[2])))
    }

    mutating func ss3(_ body: String, _ scalar: Unicode.Scalar) -> [Event] {
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
            // SGR mouse: CSI < button ; column ; row M (press) or m (release). The position is
            // clamped: a forged `-9223372036854775808` must not overflow the `- 1` below.
            let fields = body.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            guard fields.count == 3, let button = fields[0], button >= 0, let column = fields[1], let row = fields[2] else { return [] }
            func clamped(_ number: Int) -> Int { min(max(number, 0), Self.largestCoordinate) }
            return Self.mouse(button: button, column: clamped(column) - 1, row: clamped(row) - 1, press: final == "M")
        }
        // The device attributes HotTask asked for at start (`CSI ? … c`).
        if body.hasPrefix("?"), final == "c" {
            reports.append(.deviceAttributes)
            return []
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

    /// Beyond any terminal's size; a report's column and row are clamped to 0...this.
    static let largestCoordinate = 1 << 16

    /// A mouse report: 64 and 65 (plus modifier bits) are the wheel; 0 pressed is a click of
    /// the left button (at a 0-based column and row). Releases, drags (32), other buttons
    /// and clicks with Shift, Alt or Ctrl (4, 8, 16) mean nothing here.
    static func mouse(button: Int, column: Int, row: Int, press: Bool) -> [Event] {
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
}
