import FoundationEssentials
import Glibc

/// A colour in sRGB, 8 bits a channel: what a terminal shows for a colour index, or what it
/// answers when asked for its background (OSC 11).
public struct RGB: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb` (the config's form), or nil.
    public init?(hex text: String) {
        guard text.count == 7, text.first == "#", let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    public var description: String {
        "#" + [red, green, blue].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// WCAG 2.x relative luminance: 0 for black, 1 for white.
    public var luminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2.x contrast ratio with `other`: 1 (the same) to 21 (black on white). Text needs
    /// 4.5, marks and other non-text parts 3.
    public func contrast(with other: RGB) -> Double {
        let (light, dark) = luminance >= other.luminance ? (luminance, other.luminance) : (other.luminance, luminance)
        return (light + 0.05) / (dark + 0.05)
    }

    /// A background this light takes the light palette (dark text); darker, the dark one.
    public var isLight: Bool { luminance > 0.4 }
}

/// A colour as HotTask asks the terminal for it.
public enum TerminalColor: Equatable, Hashable, Sendable {
    /// One of the terminal's 16 own colours (0 black … 7 white, 8–15 their bright forms): what it
    /// looks like is the terminal's choice (its theme).
    case standard(Int)
    /// One of xterm's 240 fixed colours (16–231 a 6×6×6 cube, 232–255 greys): the same in every
    /// terminal with 256 colours, so a palette of them can be checked for contrast.
    case indexed(Int)

    /// The colour a fixed index stands for (nil for the terminal's own 16).
    public var rgb: RGB? {
        guard case .indexed(let index) = self else { return nil }
        return Self.rgb(ofIndex: index)
    }

    /// The index ncurses is given.
    public var index: Int {
        switch self {
        case .standard(let index), .indexed(let index): index
        }
    }

    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// xterm's colour of index 16…255.
    static func rgb(ofIndex index: Int) -> RGB? {
        switch index {
        case 16...231:
            let cube = index - 16
            return RGB(cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        case 232...255:
            let grey = UInt8(8 + 10 * (index - 232))
            return RGB(grey, grey, grey)
        default:
            return nil
        }
    }

    /// The fixed colour nearest to `rgb` (a `#rrggbb` from the config), by distance in sRGB.
    public static func nearest(to rgb: RGB) -> TerminalColor {
        func distance(_ other: RGB) -> Int {
            let (r, g, b) = (Int(rgb.red) - Int(other.red), Int(rgb.green) - Int(other.green), Int(rgb.blue) - Int(other.blue))
            return r * r + g * g + b * b
        }
        let best = (16...255).min { distance(Self.rgb(ofIndex: $0) ?? rgb) < distance(Self.rgb(ofIndex: $1) ?? rgb) } ?? 16
        return .indexed(best)
    }

    /// The names the config's `[colors]` takes for the terminal's own colours.
    static let names: [String: Int] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "bright-black": 8, "grey": 8, "gray": 8, "bright-red": 9, "bright-green": 10, "bright-yellow": 11, "bright-blue": 12,
        "bright-magenta": 13, "bright-cyan": 14, "bright-white": 15,
    ]

    /// A colour as the config writes it: a name, `default` (nil: the terminal's own text or
    /// background colour), or `#rrggbb`. Throws the forms it takes otherwise.
    static func parse(_ text: String) -> TerminalColor?? {
        let lower = text.lowercased()
        if lower == "default" { return .some(nil) }
        if let index = names[lower] { return .standard(index) }
        if let rgb = RGB(hex: lower) { return nearest(to: rgb) }
        return nil
    }

    static let forms = "a colour name (black, red, green, yellow, blue, magenta, cyan, white, bright-red…, grey), default, or #rrggbb"
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
