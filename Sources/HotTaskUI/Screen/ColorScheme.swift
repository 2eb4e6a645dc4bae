import HotTaskSettings

/// How a cell style looks: its colours (nil: the terminal's own text or background colour) and
/// attributes.
public struct Look: Equatable, Sendable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold = false
    public var underline = false

    init(_ foreground: Int? = nil, on background: Int? = nil, bold: Bool = false, underline: Bool = false) {
        self.foreground = foreground.map(TerminalColor.indexed)
        self.background = background.map(TerminalColor.indexed)
        self.bold = bold
        self.underline = underline
    }
}

/// The dark and light palettes for terminals with 256 colours: every style in fixed colours
/// (xterm's cube and greys, the same in every such terminal), so that their contrast can be
/// checked against any background, as `ColorSchemeTests` does against xterm's, GNOME
/// Terminal's and Solarized's: 4.5 or more for text, 3 for marks (the gauge, the rule). Open
/// tasks are drawn in the palette's text colour rather than the terminal's, so that completed
/// ones can be visibly dimmer and still readable (Solarized's own text colour is already near
/// the limit).
public struct ColorScheme: Equatable, Sendable {
    public let name: String
    private var looks: [CellStyle: Look]

    public func look(_ style: CellStyle) -> Look {
        looks[style] ?? Look()
    }

    /// For a dark background: light text, a light selection bar with dark text.
    public static let dark = ColorScheme(
        name: "dark",
        looks: [
            .plain: Look(254), .title: Look(16, on: 80, bold: true), .gaugeDone: Look(77), .gaugeTodo: Look(244),
            .prompt: Look(80, bold: true), .promptInactive: Look(247), .placeholder: Look(247), .addEnabled: Look(77, bold: true),
            .addDisabled: Look(247), .rule: Look(244), .header: Look(176, bold: true), .hint: Look(247), .taskDone: Look(247),
            .selected: Look(16, on: 153, bold: true), .selectedDone: Look(240, on: 153), .selectedInactive: Look(254, bold: true),
            .footerKey: Look(80, bold: true), .footerText: Look(247), .info: Look(114), .warning: Look(214, bold: true),
            .error: Look(210, bold: true), .match: Look(220, bold: true, underline: true),
            .matchSelected: Look(88, on: 153, bold: true, underline: true),
            .filterText: Look(220, bold: true), .segment: Look(247), .segmentActive: Look(16, on: 80, bold: true),
            .editField: Look(254, underline: true), .editSelection: Look(16, on: 153), .overlay: Look(252, on: 236),
            .overlayKey: Look(117, on: 236, bold: true),
            .due: Look(117), .dueToday: Look(220, bold: true), .overdue: Look(210, bold: true, underline: true),
            .overdueSelected: Look(88, on: 153, bold: true, underline: true),
        ])

    /// For a light background: dark text, a blue selection bar with white text.
    public static let light = ColorScheme(
        name: "light",
        looks: [
            .plain: Look(235), .title: Look(231, on: 25, bold: true), .gaugeDone: Look(28), .gaugeTodo: Look(245),
            .prompt: Look(25, bold: true), .promptInactive: Look(242), .placeholder: Look(242), .addEnabled: Look(22, bold: true),
            .addDisabled: Look(242), .rule: Look(245), .header: Look(90, bold: true), .hint: Look(242), .taskDone: Look(242),
            .selected: Look(231, on: 25, bold: true), .selectedDone: Look(253, on: 25), .selectedInactive: Look(235, bold: true),
            .footerKey: Look(25, bold: true), .footerText: Look(242), .info: Look(22), .warning: Look(94, bold: true),
            .error: Look(160, bold: true), .match: Look(90, bold: true, underline: true),
            .matchSelected: Look(229, on: 25, bold: true, underline: true),
            .filterText: Look(90, bold: true), .segment: Look(242), .segmentActive: Look(231, on: 25, bold: true),
            .editField: Look(235, underline: true), .editSelection: Look(231, on: 25), .overlay: Look(235, on: 254),
            .overlayKey: Look(25, on: 254, bold: true),
            .due: Look(24), .dueToday: Look(94, bold: true), .overdue: Look(160, bold: true, underline: true),
            .overdueSelected: Look(224, on: 25, bold: true, underline: true),
        ])

    /// Styles that are marks rather than text to read: their contrast needs 3, not 4.5.
    public static let marks: Set<CellStyle> = [.gaugeDone, .gaugeTodo, .rule]

    /// This palette with the config's `[colors]` on top.
    public func applying(_ colors: [ColorRole: TerminalColor?]) -> ColorScheme {
        var scheme = self
        for (role, color) in colors {
            for style in role.foregrounds { scheme.looks[style, default: Look()].foreground = color }
            for style in role.backgrounds { scheme.looks[style, default: Look()].background = color }
        }
        return scheme
    }
}

/// Which styles each `[colors]` role colours: its text, or its background.
extension ColorRole {
    public var foregrounds: [CellStyle] {
        switch self {
        case .text: [.plain, .selectedInactive, .editField]
        case .done: [.taskDone]
        case .selection: []
        case .selectionText: [.selected, .editSelection]
        case .header: [.header]
        case .title: []
        case .accent: [.prompt, .footerKey]
        case .due: [.due]
        case .dueToday: [.dueToday]
        case .overdue: [.overdue]
        case .match: [.match, .filterText]
        case .hint: [.placeholder, .promptInactive, .hint, .footerText, .segment, .addDisabled]
        case .info: [.info]
        case .warning: [.warning]
        case .error: [.error]
        case .gauge: [.gaugeDone]
        }
    }

    public var backgrounds: [CellStyle] {
        switch self {
        case .selection: [.selected, .selectedDone, .matchSelected, .overdueSelected, .editSelection]
        case .title: [.title, .segmentActive]
        default: []
        }
    }
}
