import HotTaskSettings

/// Which key an escape sequence names, whichever terminal sent it: xterm's forms with
/// modifiers, rxvt's (`ESC O d` Ctrl-←, `ESC [ a` Shift-↑, `ESC [ 3 $` Shift-Delete), and the
/// kitty keyboard protocol's `CSI code ; modifier u` and xterm's modifyOtherKeys
/// `CSI 27 ; modifier ; code ~`, which all come out as the key xterm's plain form gives.
enum SequenceKeys {
    /// `CSI n ~` keys: Home, Insert, Delete, End, PgUp, PgDn and F1–F12 (xterm, rxvt, Linux).
    static func tilde(_ number: Int, modifier: Int) -> Key? {
        let base: Key
        switch number {
        case 1, 7: base = .home
        case 3: base = .delete
        case 4, 8: base = .end
        case 5: base = .pageUp
        case 6: base = .pageDown
        case 11...15: base = .function(number - 10)
        case 17...21: base = .function(number - 11)
        case 23, 24: base = .function(number - 12)
        default: return nil  // Insert (2), F13+ of rxvt, a stray paste end (201)…
        }
        return modified(base, modifier)
    }

    /// Keys named by a final byte: arrows, Home, End, keypad Enter, F1–F4 (CSI or SS3).
    static func final(_ final: Unicode.Scalar, modifier: Int) -> Key? {
        let base: Key
        switch final {
        case "A": base = .up
        case "B": base = .down
        case "C": base = .right
        case "D": base = .left
        case "H": base = .home
        case "F": base = .end
        case "M": base = .enter  // keypad Enter in application mode
        case "P": base = .function(1)
        case "Q": base = .function(2)
        case "R": base = .function(3)
        case "S": base = .function(4)
        default: return nil
        }
        return modified(base, modifier)
    }

    /// xterm's modifier parameter: 1 + (1 Shift, 2 Alt, 4 Ctrl, 8 Meta). Only combinations
    /// that mean something to HotTask become keys; the others are dropped, never typed.
    static func modified(_ base: Key, _ modifier: Int) -> Key? {
        let bits = max(0, modifier - 1)
        guard bits != 0 else { return base }
        let shift = bits & 1 != 0
        let wordwise = bits & (2 | 4 | 8) != 0  // Alt, Ctrl or Meta
        switch base {
        case .up where shift && !wordwise: return .shiftUp
        case .down where shift && !wordwise: return .shiftDown
        case .left: return wordwise ? .wordLeft : .left
        case .right: return wordwise ? .wordRight : .right
        case .home, .end, .pageUp, .pageDown, .delete: return wordwise ? nil : base
        case .function(let number) where bits == 1 && number <= 12: return .function(number + 12)  // Shift-F1 is F13
        default: return nil
        }
    }

    /// rxvt's lower-case finals: `ESC O a`…`d` are Ctrl-↑↓→←, `ESC [ a`…`d` Shift-↑↓→←.
    static func rxvt(_ final: Unicode.Scalar, control: Bool) -> Key? {
        // The arrows' own finals in upper case, with Ctrl (5) or Shift (2).
        guard ("a"..."d").contains(final), let upper = Unicode.Scalar(final.value - 0x20) else { return nil }
        return self.final(upper, modifier: control ? 5 : 2)
    }

    /// rxvt's modifier finals after `CSI n`: `$` Shift, `^` Ctrl, `@` Ctrl-Shift.
    static func rxvtModifier(_ final: Unicode.Scalar) -> Int? {
        switch final {
        case "$": 2
        case "^": 5
        case "@": 6
        default: nil
        }
    }

    /// A key given by its Unicode code point and xterm's modifier parameter (CSI u, or
    /// modifyOtherKeys): the key the same keys give in the legacy encoding. `shifted` is the
    /// kitty protocol's shifted key, when it reports one.
    static func text(code: Int, shifted: Int? = nil, modifier: Int) -> Key? {
        let bits = max(0, modifier - 1) & ~(64 | 128)  // Caps Lock and Num Lock change nothing
        guard bits & ~7 == 0 else { return nil }  // Super, Hyper, Meta: nothing here
        let shift = bits & 1 != 0
        let alt = bits & 2 != 0
        let control = bits & 4 != 0
        switch code {
        case 13, 57414: return alt || control ? nil : .enter  // 57414: kitty's keypad Enter
        case 9: return alt || control ? nil : shift ? .backTab : .tab
        case 27: return bits == 0 ? .escape : nil
        case 8, 127: return alt || control ? .altBackspace : .backspace
        default: break
        }
        // Controls, and the private use area where kitty puts keys that are not text.
        guard code >= 0x20, !(0x7F...0x9F).contains(code), !(0xE000...0xF8FF).contains(code),
            let scalar = Unicode.Scalar(UInt32(clamping: code))
        else { return nil }
        var character = Character(scalar)
        if shift {
            if let shifted, shifted >= 0x20, let other = Unicode.Scalar(UInt32(clamping: shifted)) {
                character = Character(other)
            } else if let upper = character.uppercased().first, character.uppercased().count == 1 {
                character = upper
            }
        }
        switch (control, alt) {
        case (true, false):
            // The byte the legacy encoding sends for it: Ctrl-letter, Ctrl-I is Tab…
            let lower = character.lowercased().first ?? character
            switch lower {
            case "i": return .tab
            case "h": return .backspace
            case "j", "m": return .enter
            case "[": return .escape
            case "_", "/": return .control("_")
            case "-" where shift: return .control("_")
            default: return lower.isASCII && lower.isLetter ? .control(lower) : nil
            }
        case (false, true): return character == " " ? nil : .alt(character)
        case (false, false): return .character(character)
        case (true, true): return nil
        }
    }
}
