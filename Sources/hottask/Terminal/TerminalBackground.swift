import CNcursesw
import FoundationEssentials
import Glibc
import HotTaskSettings
import HotTaskUI

/// The terminal's background (OSC 11), for `theme = "auto"`: asked once, after the first frame,
/// whose palette is the one this terminal's answer gave last time; the answer, whenever it
/// comes, chooses the palette and is remembered for the next start (`RememberedView`).
struct BackgroundQuestion {
    /// What a terminal said.
    enum Said: Equatable {
        case color(RGB)
        /// It answered the device attributes only: it does not know OSC 11.
        case none

        init(stored: String) { self = RGB(hex: stored).map { .color($0) } ?? .none }

        var stored: String {
            switch self {
            case .color(let rgb): rgb.description
            case .none: "none"
            }
        }

        var color: RGB? {
            if case .color(let rgb) = self { rgb } else { nil }
        }
    }

    /// Which terminal (`RememberedView.backgroundKey`).
    var key = ""
    /// What it said at the last start that heard it.
    var remembered: Said?
    /// What it said this time.
    private(set) var said: Said?
    /// Still to be asked, after the first frame.
    var isDue = false

    /// The Linux console and vt terminals can show an OSC they do not know as text.
    static func mayAsk(term: String) -> Bool {
        !term.hasPrefix("linux") && !term.hasPrefix("vt") && !term.hasPrefix("cons")
    }

    /// The query: OSC 11, then the device attributes (DA1), which every terminal answers, so
    /// that one that does not know OSC 11 says so.
    static let query = "\u{1B}]11;?\u{1B}\\\u{1B}[c"

    mutating func heard(_ answer: Said?) {
        // A colour stands: the device attributes that follow it say nothing more.
        guard let answer, said?.color == nil || answer != .none else { return }
        said = answer
    }

    /// What to remember, when it differs from what was.
    var toRemember: (key: String, value: String)? {
        guard let said, said != remembered else { return nil }
        return (key, said.stored)
    }
}

extension Curses {
    /// How long xterm's own `TERM=xterm`, never heard before, waits for the terminal to say its
    /// background at start. A terminal that does not know OSC 11 answers the device-attributes
    /// query sent after it at once, so the wait is this long only when nothing answers at all.
    static let backgroundWait: TimeInterval = 0.15

    /// Asks now, with the terminal in raw mode for the while (no echo of the answer), and reads
    /// until one says. The colour, or nil; `answered`: anything came.
    func askForTheBackground() -> (background: RGB?, answered: Bool) {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return (nil, false) }
        var rawMode = original
        cfmakeraw(&rawMode)
        tcsetattr(STDIN_FILENO, TCSANOW, &rawMode)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &original) }
        Self.writeDirectly(BackgroundQuestion.query)
        let deadline = Date().addingTimeInterval(Self.backgroundWait)
        var found: RGB?
        var answered = false
        while Date() < deadline {
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let waited = poll(&ready, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            if waited < 0, errno == EINTR { continue }
            guard waited > 0 else { break }
            early += readInput(takingReports: false)
            for report in decoder.takeReports() {
                answered = true
                if case .background(let rgb) = report { found = rgb }
            }
            if found != nil || answered { break }
        }
        if !early.isEmpty { pendingDeadline = Date() }
        return (found, answered)
    }

    /// Asks after the first frame is on screen, in curses' raw mode (no echo): the answer comes
    /// as input, whenever the terminal sends it (`takeLateReports`).
    func askAfterTheFirstFrame() {
        guard backgroundQuestion.isDue else { return }
        backgroundQuestion.isDue = false
        Self.writeDirectly(BackgroundQuestion.query)
    }

    /// What the terminal said this time, to remember for its next start (nil: nothing new).
    var backgroundToRemember: (key: String, value: String)? { backgroundQuestion.toRemember }

    /// A background reply that came after the first frame (or after the start's wait) chooses
    /// the palette, over last time's or COLORFGBG's guess.
    func takeLateReports() {
        for report in decoder.takeReports() {
            switch report {
            case .background(let rgb):
                backgroundQuestion.heard(.color(rgb))
                guard theme == .auto, rgb != background else { continue }
                background = rgb
                palette = Palette(theme: theme, background: rgb, colors: colors, environment: ProcessInfo.processInfo.environment)
                repaintNeeded = true
            case .deviceAttributes:
                backgroundQuestion.heard(BackgroundQuestion.Said.none)
            }
        }
    }
}
