import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// Issue 42: readable on any background. Each palette's every style, computed against the
/// default backgrounds (and text colours) of xterm, GNOME Terminal and Solarized: a WCAG 2.x
/// contrast of 4.5 or more for text, 3 for marks; the selection bar stands out from the
/// background; completed tasks are visibly dimmer than open ones.
@Suite("Colour schemes: contrast on every background")
struct ColorSchemeTests {
    /// A terminal's default colours: the background, and the text colour a style without one uses.
    struct Terminal: CustomTestStringConvertible, Sendable {
        let name: String
        let background: RGB
        let text: RGB
        var testDescription: String { name }
    }

    /// The dark palette's backgrounds: xterm with -rv (reverse video, black), GNOME Terminal's
    /// built-in "GNOME dark", its system-theme colours in dark style, its "Tango dark", and
    /// Solarized's dark (base03, base0).
    static let darkTerminals = [
        Terminal(name: "xterm -rv", background: RGB(0x00, 0x00, 0x00), text: RGB(0xFF, 0xFF, 0xFF)),
        Terminal(name: "GNOME Terminal, GNOME dark", background: RGB(0x17, 0x14, 0x21), text: RGB(0xD0, 0xCF, 0xCC)),
        Terminal(name: "GNOME Terminal, system theme (Adwaita dark)", background: RGB(0x24, 0x24, 0x24), text: RGB(0xFF, 0xFF, 0xFF)),
        Terminal(name: "GNOME Terminal, Tango dark", background: RGB(0x2E, 0x34, 0x36), text: RGB(0xD3, 0xD7, 0xCF)),
        Terminal(name: "Solarized dark", background: RGB(0x00, 0x2B, 0x36), text: RGB(0x83, 0x94, 0x96)),
    ]
    /// The light palette's: xterm's default (white), GNOME Terminal's "GNOME light" and
    /// Solarized's light (base3, base00).
    static let lightTerminals = [
        Terminal(name: "xterm", background: RGB(0xFF, 0xFF, 0xFF), text: RGB(0x00, 0x00, 0x00)),
        Terminal(name: "GNOME Terminal, GNOME light", background: RGB(0xFF, 0xFF, 0xFF), text: RGB(0x17, 0x14, 0x21)),
        Terminal(name: "Solarized light", background: RGB(0xFD, 0xF6, 0xE3), text: RGB(0x65, 0x7B, 0x83)),
    ]

    /// The contrast of a style's text with what is behind it, on `terminal`.
    static func contrast(_ look: Look, on terminal: Terminal) -> Double {
        let foreground = look.foreground?.rgb ?? terminal.text
        let background = look.background?.rgb ?? terminal.background
        return foreground.contrast(with: background)
    }

    @Test(arguments: darkTerminals)
    func theDarkPaletteIsReadable(on terminal: Terminal) {
        expectReadable(.dark, on: terminal)
    }

    @Test(arguments: lightTerminals)
    func theLightPaletteIsReadable(on terminal: Terminal) {
        expectReadable(.light, on: terminal)
    }

    private func expectReadable(_ scheme: ColorScheme, on terminal: Terminal, sourceLocation: SourceLocation = #_sourceLocation) {
        for style in CellStyle.allCases {
            let look = scheme.look(style)
            #expect(
                look.foreground?.rgb != nil, "\(scheme.name) \(style): a fixed colour, the same in every terminal", sourceLocation: sourceLocation)
            let needed = ColorScheme.marks.contains(style) ? 3.0 : 4.5
            let ratio = Self.contrast(look, on: terminal)
            #expect(ratio >= needed, "\(scheme.name) \(style) on \(terminal.name): \(ratio) < \(needed)", sourceLocation: sourceLocation)
        }
        // The selection bar is a mark of its own: it must stand out from the background.
        let bar = scheme.look(.selected).background?.rgb
        #expect(
            bar.map { $0.contrast(with: terminal.background) >= 3 } == true, "\(scheme.name) bar on \(terminal.name)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [ColorScheme.dark, .light])
    func completedTasksAreVisiblyDimmer(_ scheme: ColorScheme) throws {
        let open = try #require(scheme.look(.plain).foreground?.rgb)
        let done = try #require(scheme.look(.taskDone).foreground?.rgb)
        // Nearer the background by a step anyone sees: their own contrast is 1.9 or more.
        #expect(open.contrast(with: done) >= 1.9, "\(scheme.name): \(open) and \(done)")
        let terminals = scheme == .dark ? Self.darkTerminals : Self.lightTerminals
        for terminal in terminals {
            #expect(done.contrast(with: terminal.background) < open.contrast(with: terminal.background))
        }
        // On the selection bar too.
        let bar = try #require(scheme.look(.selected).background?.rgb)
        let selected = try #require(scheme.look(.selected).foreground?.rgb)
        let selectedDone = try #require(scheme.look(.selectedDone).foreground?.rgb)
        #expect(selectedDone.contrast(with: bar) < selected.contrast(with: bar))
    }

    /// What the issue saw on xterm's white background, as numbers: the old yellow "today"
    /// (xterm's yellow, #cdcd00) fails by far; the light palette's passes.
    @Test func theOldTodayFailedWhereTheNewOnePasses() throws {
        let white = RGB(0xFF, 0xFF, 0xFF)
        #expect(RGB(0xCD, 0xCD, 0x00).contrast(with: white) < 1.8)
        let today = try #require(ColorScheme.light.look(.dueToday).foreground?.rgb)
        #expect(today.contrast(with: white) >= 4.5)
    }

    @Test func luminanceAndContrastFollowWCAG() {
        #expect(abs(RGB(0, 0, 0).contrast(with: RGB(255, 255, 255)) - 21) < 0.0001)
        #expect(abs(RGB(0x76, 0x76, 0x76).contrast(with: RGB(255, 255, 255)) - 4.54) < 0.01)
        #expect(TerminalColor.indexed(244).rgb == RGB(0x80, 0x80, 0x80))
        #expect(TerminalColor.indexed(153).rgb == RGB(0xAF, 0xD7, 0xFF))
        #expect(TerminalColor.nearest(to: RGB(0x80, 0x80, 0x80)) == .indexed(244))
        #expect(RGB(hex: "#fdf6e3") == RGB(0xFD, 0xF6, 0xE3))
        #expect(RGB(hex: "fdf6e3") == nil)
    }

    @Test func theConfigsColoursGoOnTopOfThePalette() {
        let config = AppConfig.parse("[colors]\ndone = \"#808080\"\nselection = \"blue\"\ntext = \"default\"", file: "c.toml")
        let scheme = ColorScheme.dark.applying(config.colors)
        #expect(scheme.look(.taskDone).foreground == .indexed(244))
        #expect(scheme.look(.selected).background == .standard(4))
        #expect(scheme.look(.selectedDone).background == .standard(4))
        #expect(scheme.look(.plain).foreground == nil, "default: the terminal's own text colour")
    }
}
