import CNcursesw
import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskSettings
import HotTaskUI

/// The only code that talks to ncurses: it turns the bytes `wgetch` reads into events and a grid into
/// screen cells. Everything it draws was decided by `AppRender`.
final class Curses {
    var palette: Palette
    /// What chooses the palette: the theme, the config's colours, and the terminal's background
    /// once it said it (OSC 11, at start or later).
    let theme: Theme
    let colors: [ColorRole: TerminalColor?]
    var background: RGB?
    /// The palette changed after a late reply: the next frame repaints everything.
    var repaintNeeded = false
    /// Keys typed while the start waited for the terminal's reply, handed over first.
    var early: [Event] = []
    /// What the terminal says of its background, and whether it is still to be asked (after the
    /// first frame: see `askAfterTheFirstFrame`).
    var backgroundQuestion = BackgroundQuestion()
    private var clusters = ClusterWriter()

    /// Input as the terminal sends it, decoded by HotTask rather than by ncurses' keypad mode
    /// (which knows only the keys the terminfo entry lists: see DECISIONS.md).
    var decoder = InputDecoder(escapeDelay: InputDecoder.escapeDelay(environment: ProcessInfo.processInfo.environment))
    /// Input bytes as they come, one at a time.
    private var utf8 = UTF8Bytes()
    /// A paste read in blocks (`readPaste`) may end a block inside a character.
    private var pasteUTF8 = UTF8Chunks()

    /// Sent after start and after a suspend: bracketed paste, and mouse reports (clicks and
    /// the wheel) in SGR form with the X10 form as the fallback, unless the config's
    /// `mouse = false` leaves the mouse to the terminal. Turned off again on stop.
    private let modesOn: String
    private static let modesOff = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l"

    /// Starts curses mode. The caller must call `stop()` on every exit path. Throws, having
    /// written nothing to the terminal, when `TERM` names no terminal that can move the cursor
    /// (unknown, `dumb`, hardcopy): ncurses' `initscr` would print its own error and exit.
    init(theme: Theme = .auto, colors: [ColorRole: TerminalColor?] = [:], mouse: Bool = true) throws {
        Self.chooseUTF8Locale()
        let environment = ProcessInfo.processInfo.environment
        let term = environment["TERM"] ?? ""
        guard hc_terminal_can_move_cursor() == 1 else {
            throw UserFacingError(.noTerminal, "HotTask needs a terminal that can move the cursor (TERM=\(term))")
        }
        self.theme = theme
        self.colors = colors
        palette = Palette.mono
        modesOn = "\u{1B}[?2004h" + (mouse ? "\u{1B}[?1000h\u{1B}[?1006h" : "")
        // The first frame does not wait for the terminal: it has the palette this terminal's
        // background gave last time (or COLORFGBG's guess), and the question is asked after it
        // (issue 49: 150 ms where nothing answers). Only xterm's own TERM=xterm, never heard
        // before, waits as before: the answer chooses its terminal type (256 colours or 8).
        let wantsColor = environment["NO_COLOR"].map(\.isEmpty) ?? true
        let key = RememberedView.backgroundKey(environment: environment)
        let remembered = RememberedView.load(environment: environment).backgrounds[key].map(BackgroundQuestion.Said.init(stored:))
        backgroundQuestion = BackgroundQuestion(key: key, remembered: remembered)
        var answer: (background: RGB?, answered: Bool) = (nil, false)
        if wantsColor, theme == .auto || term == "xterm", BackgroundQuestion.mayAsk(term: term) {
            if term == "xterm", remembered == nil {
                answer = askForTheBackground()
                backgroundQuestion.heard(answer.background.map { .color($0) } ?? (answer.answered ? BackgroundQuestion.Said.none : nil))
            } else {
                backgroundQuestion.isDue = true
            }
        }
        let known = answer.background ?? remembered?.color
        if theme == .auto { background = known ?? Self.backgroundFromColorFGBG(environment) }
        let type = term == "xterm" && known != nil ? "xterm-256color" : nil
        guard hc_newterm(type) != nil || hc_newterm(nil) != nil else {
            throw UserFacingError(.noTerminal, "HotTask needs a terminal that can move the cursor (TERM=\(term))")
        }
        raw()  // Ctrl-C, Ctrl-Z and Ctrl-Q arrive as keys; the app decides what they do
        noecho()
        nonl()
        keypad(hc_stdscr(), false)  // every byte reaches the decoder
        meta(hc_stdscr(), true)  // all eight bits of every byte
        palette = Palette(theme: theme, background: background, colors: colors, environment: environment)
        Self.writeDirectly(modesOn)
    }

    /// `COLORFGBG` (rxvt, Konsole and others set it): "15;0" is light text on a dark background.
    static func backgroundFromColorFGBG(_ environment: [String: String]) -> RGB? {
        guard let value = environment["COLORFGBG"], let last = value.split(separator: ";").last, let index = Int(last) else { return nil }
        return index == 7 || index == 15 ? RGB(255, 255, 255) : RGB(0, 0, 0)
    }

    /// True once after the palette changed (a late reply): the frame must be repainted whole.
    func takeRepaint() -> Bool {
        defer { repaintNeeded = false }
        return repaintNeeded
    }

    func stop() {
        Self.writeDirectly(Self.modesOff)
        // Without an alternate screen (TERM=linux, vt100) the last frame would stay under the
        // shell's next output: clear it; endwin then puts the cursor on the bottom line.
        if hc_has_alternate_screen() == 0 {
            werase(hc_stdscr())
            clearok(hc_stdscr(), true)
            refresh()
        }
        curs_set(1)
        endwin()
    }

    /// After a suspend (`fg`): curses mode comes back with the next refresh; the modes now.
    func resume() {
        Self.writeDirectly(modesOn)
    }

    /// Bytes for the terminal that are not screen content (mode switches): written straight
    /// to the descriptor, after what ncurses has already flushed.
    static func writeDirectly(_ text: String) {
        try? Descriptor.write(text, to: STDOUT_FILENO)
    }

    /// Without a UTF-8 locale, wide characters are drawn as blanks and emoji input is lost.
    private static func chooseUTF8Locale() {
        let chosen = setlocale(LC_ALL, "").map { String(cString: $0) } ?? "C"
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if chosen == "C" || chosen == "POSIX" || codeset.uppercased() != "UTF-8" {
            setlocale(LC_ALL, "C.UTF-8")
        }
    }

    var size: Size {
        Size(width: Int(getmaxx(hc_stdscr())), height: Int(getmaxy(hc_stdscr())))
    }

    // MARK: Input

    /// When the bytes read so far leave a sequence or a character unfinished (an Esc alone, a
    /// cut-short sequence): the moment to give up waiting for the rest, or nil. The run loop
    /// sleeps until then at most.
    var pendingDeadline: Date?

    /// The events the bytes waiting on the terminal make (call when it is readable): none when
    /// they mean nothing to HotTask or begin a sequence; several when a read completes more
    /// than one (Esc, then a key). Decoded here rather than by `get_wch`: an invalid byte is
    /// U+FFFD at once.
    func readInput() -> [Event] {
        readInput(takingReports: true)
    }

    func readInput(takingReports: Bool) -> [Event] {
        var block = [UInt8](repeating: 0, count: 4096)
        let count = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        var events: [Event] = []
        for index in 0..<count {
            if decoder.isReadingPaste {
                // The rest of the block is the paste's; read on in large blocks until it ends.
                events += decoder.feed(contentsOf: pasteUTF8.decode(block[index..<count]))
                break
            }
            for scalar in utf8.feed(block[index]) { events += decoder.feed(scalar) }
        }
        if decoder.isReadingPaste { events += readPaste() }
        let pending = decoder.pendingTimeout ?? (utf8.isPending ? decoder.escapeDelay : nil)
        pendingDeadline = pending.map { Date().addingTimeInterval(Double($0) / 1000) }
        if takingReports { takeLateReports() }
        return events
    }

    /// Nothing more came by `pendingDeadline`: a character begun is U+FFFD, an Esc alone is the
    /// Esc key, a cut-short sequence is dropped.
    func expirePending(now: Date) -> [Event] {
        guard let deadline = pendingDeadline, now >= deadline else { return [] }
        pendingDeadline = nil
        var events = early
        early = []
        guard decoder.pendingTimeout != nil || utf8.isPending else { return events }
        for scalar in utf8.flush() { events += decoder.feed(scalar) }
        return decoder.pendingTimeout == nil ? events : events + decoder.timedOut()
    }

    /// The terminal's size now, after a SIGWINCH: ncurses is told (its own handler is not
    /// installed, see `Signals.installResizeHandler`).
    func resize() -> Size {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if hc_window_size(&rows, &columns) == 0, rows > 0, columns > 0 { resizeterm(rows, columns) }
        return size
    }

    /// The rest of a bracketed paste, read straight from the descriptor in large blocks:
    /// `get_wch` makes two system calls a byte, and a megabyte paste froze the screen for
    /// seconds. Safe because with keypad mode off ncurses reads one byte at a time and keeps
    /// none ahead: everything after the start marker is still in the descriptor. All that a
    /// block holds goes to the decoder, which takes bytes after the end marker as the paste's
    /// (they came in the same burst); the paste ends after a pause.
    private func readPaste() -> [Event] {
        var events: [Event] = []
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        while decoder.isReadingPaste {
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let waited = poll(&ready, 1, Int32(decoder.pendingTimeout ?? 0))
            if waited < 0, errno == EINTR { return events }  // a signal: the run loop looks, then reads on
            guard waited > 0 else {
                events += decoder.feed(contentsOf: pasteUTF8.flush())
                return events + decoder.timedOut()
            }
            let count = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                return events + decoder.timedOut()  // the terminal is gone: take what came
            }
            events += decoder.feed(contentsOf: pasteUTF8.decode(block[..<count]))
        }
        return events
    }

    // MARK: Output

    /// Copies the grid to the screen. Runs of one style are written together; a non-ASCII
    /// character is written on its own at its own column, so that a width disagreement with
    /// the terminal cannot shift the rest of the row. Clusters ncurses cannot carry get blanks
    /// here and are written whole after the refresh (`ClusterWriter`).
    func draw(_ grid: Grid, fullRepaint: Bool = false) {
        if fullRepaint { clearok(hc_stdscr(), true) }
        clusters.beginFrame(height: grid.size.height)
        werase(hc_stdscr())
        let width = grid.size.width
        var run: [wchar_t] = []
        for y in 0..<grid.size.height {
            var runStart = 0
            var runStyle = CellStyle.plain
            func flush() {
                guard !run.isEmpty else { return }
                palette.apply(runStyle)
                run.append(0)
                mvaddwstr(Int32(y), Int32(runStart), run)
                run.removeAll(keepingCapacity: true)
            }
            var x = 0
            while x < width {
                let cell = grid[x, y]
                defer { x += cell.width }
                // The bottom-right cell is left alone: writing it scrolls some terminals.
                if y == grid.size.height - 1 && x == width - 1 { break }
                let isASCII = cell.character.isASCII
                if run.isEmpty || cell.style != runStyle || !isASCII {
                    flush()
                    runStart = x
                    runStyle = cell.style
                }
                if !isASCII, ClusterWriter.needsDirectWrite(cell) {
                    clusters.add(x: x, y: y)
                    run.append(contentsOf: repeatElement(wchar_t(32), count: cell.width))
                } else {
                    run.append(contentsOf: cell.character.unicodeScalars.map { wchar_t(bitPattern: $0.value) })
                }
                if !isASCII { flush() }
            }
            flush()
        }
        palette.apply(.plain)
        if let cursor = grid.cursor {
            curs_set(1)
            move(Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        refresh()
        clusters.finishFrame(grid, palette: palette)
    }
}

/// Cell styles as colours, or as attributes alone when the terminal has no colours, NO_COLOR
/// is set (https://no-color.org) or the theme is `mono`. With 256 colours the dark or light
/// `ColorScheme` (fixed colours, checked for contrast); with fewer, or an `auto` theme the
/// terminal said nothing about, the basic palettes of the terminal's own 8 colours, text in its
/// own colour (the light one swaps yellow, white and cyan text for darker ones).
struct Palette {
    private var looks: [CellStyle: (attributes: attr_t, pair: Int16)] = [:]

    /// Attributes only.
    static let mono: Palette = {
        var palette = Palette()
        for style in CellStyle.allCases { palette.looks[style] = (look(of: style).monochrome, 0) }
        return palette
    }()

    private init() {}

    static func wantsColor(_ environment: [String: String]) -> Bool {
        (environment["NO_COLOR"].map(\.isEmpty) ?? true) && has_colors()
    }

    /// The palette a theme gives: `background` is what the terminal said (nil: nothing).
    init(theme: Theme, background: RGB?, colors: [ColorRole: TerminalColor?], environment: [String: String]) {
        guard theme != .mono, Self.wantsColor(environment) else {
            self = .mono
            return
        }
        start_color()
        use_default_colors()
        let dark: Bool? =
            switch theme {
            case .dark: true
            case .light: false
            default: background.map { !$0.isLight }
            }
        let colorCount = Int(hc_colors())
        var nextPair: Int16 = 1
        func pair(_ foreground: Int16?, _ background: Int16?) -> Int16 {
            guard foreground != nil || background != nil else { return 0 }
            init_pair(nextPair, foreground ?? -1, background ?? -1)
            defer { nextPair += 1 }
            return nextPair
        }
        if let dark, colorCount >= 256 {
            let scheme = (dark ? ColorScheme.dark : ColorScheme.light).applying(colors)
            for style in CellStyle.allCases {
                let look = scheme.look(style)
                let attributes = (look.bold ? HC_A_BOLD : HC_A_NORMAL) | (look.underline ? HC_A_UNDERLINE : HC_A_NORMAL)
                looks[style] = (attributes, pair(look.foreground.map { Int16($0.index) }, look.background.map { Int16($0.index) }))
            }
            return
        }
        // The terminal's own colours: the config's colours that it has, on the basic palette.
        let usable = { (color: TerminalColor?) -> Int16? in color.flatMap { $0.index < colorCount ? Int16($0.index) : nil } }
        for style in CellStyle.allCases {
            var look = dark == false ? Self.lightLook(of: style) : Self.look(of: style)
            for (role, color) in colors {
                if role.foregrounds.contains(style) { look.foreground = usable(color) }
                if role.backgrounds.contains(style) { look.background = usable(color) }
            }
            looks[style] = (look.attributes, pair(look.foreground, look.background))
        }
    }

    func apply(_ style: CellStyle) {
        let look = looks[style] ?? (HC_A_NORMAL, 0)
        attr_set(look.attributes, look.pair, nil)
    }

    /// The style's attributes as terminal bytes, for a direct write (`ClusterWriter`); ncurses
    /// notes them as the terminal's current attributes.
    func emit(_ style: CellStyle) {
        let look = looks[style] ?? (HC_A_NORMAL, 0)
        vid_puts(look.attributes, look.pair, nil, TerminalBytes.append)
    }

    private struct Look {
        var attributes: attr_t = HC_A_NORMAL
        var foreground: Int16?
        var background: Int16?
        /// What stands in for the colours on a terminal without them.
        var monochrome: attr_t = HC_A_NORMAL
    }

    /// For a light background: no yellow or white text, dim replaced by colour where dim
    /// grey on white is too faint, and a light selection bar.
    private static func lightLook(of style: CellStyle) -> Look {
        let red = Int16(COLOR_RED)
        let blue = Int16(COLOR_BLUE)
        let magenta = Int16(COLOR_MAGENTA)
        let cyan = Int16(COLOR_CYAN)
        let black = Int16(COLOR_BLACK)
        let white = Int16(COLOR_WHITE)
        var look = look(of: style)
        switch style {
        case .title: look = Look(attributes: HC_A_BOLD, foreground: white, background: blue, monochrome: look.monochrome)
        case .prompt, .footerKey: look.foreground = blue
        case .selected: look = Look(attributes: HC_A_BOLD, foreground: white, background: blue, monochrome: look.monochrome)
        case .selectedDone: look = Look(foreground: white, background: blue, monochrome: look.monochrome)
        case .warning: look.foreground = magenta
        case .match, .filterText: look.foreground = red
        case .matchSelected: look = Look(attributes: HC_A_BOLD | HC_A_UNDERLINE, foreground: white, background: blue, monochrome: look.monochrome)
        case .segmentActive: look = Look(attributes: HC_A_BOLD, foreground: white, background: blue, monochrome: look.monochrome)
        case .overlay: look = Look(foreground: black, background: cyan, monochrome: look.monochrome)
        case .overlayKey: look = Look(attributes: HC_A_BOLD, foreground: blue, background: cyan, monochrome: look.monochrome)
        case .due: look.foreground = blue
        case .dueToday: look.foreground = magenta
        default: break
        }
        return look
    }

    private static func look(of style: CellStyle) -> Look {
        let red = Int16(COLOR_RED)
        let green = Int16(COLOR_GREEN)
        let yellow = Int16(COLOR_YELLOW)
        let blue = Int16(COLOR_BLUE)
        let magenta = Int16(COLOR_MAGENTA)
        let cyan = Int16(COLOR_CYAN)
        let black = Int16(COLOR_BLACK)
        let white = Int16(COLOR_WHITE)
        switch style {
        case .plain: return Look()
        case .title: return Look(attributes: HC_A_BOLD, foreground: black, background: cyan, monochrome: HC_A_REVERSE)
        case .gaugeDone: return Look(foreground: green, monochrome: HC_A_BOLD)
        case .gaugeTodo: return Look(attributes: HC_A_DIM, monochrome: HC_A_DIM)
        case .prompt: return Look(attributes: HC_A_BOLD, foreground: cyan, monochrome: HC_A_BOLD)
        case .promptInactive, .placeholder, .addDisabled, .rule, .hint, .taskDone, .footerText:
            return Look(attributes: HC_A_DIM, monochrome: HC_A_DIM)
        case .addEnabled: return Look(attributes: HC_A_BOLD, foreground: green, monochrome: HC_A_BOLD)
        case .header: return Look(attributes: HC_A_BOLD, foreground: magenta, monochrome: HC_A_BOLD | HC_A_UNDERLINE)
        case .selected: return Look(attributes: HC_A_BOLD, foreground: white, background: blue, monochrome: HC_A_REVERSE)
        case .selectedDone: return Look(attributes: HC_A_DIM, foreground: white, background: blue, monochrome: HC_A_REVERSE | HC_A_DIM)
        case .selectedInactive: return Look(attributes: HC_A_BOLD, monochrome: HC_A_BOLD)
        case .footerKey: return Look(attributes: HC_A_BOLD, foreground: cyan, monochrome: HC_A_BOLD)
        case .info: return Look(foreground: green, monochrome: HC_A_BOLD)
        case .warning: return Look(attributes: HC_A_BOLD, foreground: yellow, monochrome: HC_A_BOLD)
        case .error: return Look(attributes: HC_A_BOLD, foreground: red, monochrome: HC_A_BOLD | HC_A_REVERSE)
        case .match: return Look(attributes: HC_A_BOLD | HC_A_UNDERLINE, foreground: yellow, monochrome: HC_A_BOLD | HC_A_UNDERLINE)
        case .matchSelected:
            return Look(attributes: HC_A_BOLD | HC_A_UNDERLINE, foreground: yellow, background: blue, monochrome: HC_A_REVERSE | HC_A_UNDERLINE)
        case .filterText: return Look(attributes: HC_A_BOLD, foreground: yellow, monochrome: HC_A_BOLD)
        case .segment: return Look(attributes: HC_A_DIM, monochrome: HC_A_DIM)
        case .segmentActive: return Look(attributes: HC_A_BOLD, foreground: black, background: cyan, monochrome: HC_A_REVERSE)
        case .editField: return Look(attributes: HC_A_UNDERLINE, monochrome: HC_A_UNDERLINE)
        case .editSelection: return Look(attributes: HC_A_REVERSE, monochrome: HC_A_REVERSE)
        case .overlay: return Look(foreground: white, background: blue, monochrome: HC_A_REVERSE)
        case .overlayKey: return Look(attributes: HC_A_BOLD, foreground: yellow, background: blue, monochrome: HC_A_REVERSE | HC_A_BOLD)
        case .due: return Look(foreground: cyan)
        case .dueToday: return Look(attributes: HC_A_BOLD, foreground: yellow, monochrome: HC_A_BOLD)
        // Bold and underlined whatever the colours: NO_COLOR and mono terminals still mark it.
        case .overdue: return Look(attributes: HC_A_BOLD | HC_A_UNDERLINE, foreground: red, monochrome: HC_A_BOLD | HC_A_UNDERLINE)
        case .overdueSelected:
            return Look(
                attributes: HC_A_BOLD | HC_A_UNDERLINE, foreground: white, background: blue, monochrome: HC_A_REVERSE | HC_A_BOLD | HC_A_UNDERLINE)
        }
    }
}
