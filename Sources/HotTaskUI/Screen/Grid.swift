/// What a cell means; the terminal adapter turns it into colours or attributes.
public enum CellStyle: UInt8, CaseIterable, Sendable {
    case plain
    case title
    case gaugeDone
    case gaugeTodo
    case prompt
    case promptInactive
    case placeholder
    case addEnabled
    case addDisabled
    case rule
    case header
    case hint
    case taskDone
    case selected
    case selectedDone
    case selectedInactive
    case footerKey
    case footerText
    case info
    case warning
    case error
    /// The part of a caption the filter matched, on an ordinary row and on the selected one.
    case match
    case matchSelected
    /// The filter text in the view bar.
    case filterText
    /// A sort mode in the view bar, and the active one.
    case segment
    case segmentActive
    /// The caption being edited in place.
    case editField
    /// Text selected in a field (the due prompt's old date, which typing replaces).
    case editSelection
    /// The help overlay's box and text, and the keys in it.
    case overlay
    case overlayKey
    /// A row's due date: later, today, and overdue (bold and underlined as well as coloured),
    /// and overdue on the selection bar.
    case due
    case dueToday
    case overdue
    case overdueSelected
}

/// One terminal cell. A wide character sits in its first cell and covers the next ones; which
/// cells are covered is always derived from the first cell's width (as ratatui does), never
/// stored, so overdrawing part of a wide character cannot leave a stale half behind.
public struct Cell: Equatable, Sendable {
    public var character: Character
    public var style: CellStyle

    static let blank = Cell(character: " ", style: .plain)

    /// Columns the cell's character takes on screen: 1, 2 for CJK and emoji, more for some
    /// Indic clusters.
    public var width: Int { character.isASCII ? 1 : max(1, DisplayWidth.of(character)) }
}

/// Terminal size in columns and rows.
public struct Size: Equatable, Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A frame drawn in memory: what the screen will show, independent of ncurses.
public struct Grid: Equatable, Sendable {
    public let size: Size
    private(set) var cells: [Cell]
    /// Where the terminal cursor goes, or nil to hide it.
    public var cursor: (x: Int, y: Int)? {
        get { cursorPosition.map { ($0.width, $0.height) } }
        set { cursorPosition = newValue.map { Size(width: $0.x, height: $0.y) } }
    }
    private var cursorPosition: Size?

    init(size: Size) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        cells = Array(repeating: .blank, count: self.size.width * self.size.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * size.width + x]
    }

    /// Whether cell `x` of row `y` is hidden under the wide character to its left: the
    /// adapter skips it.
    func isCovered(x: Int, y: Int) -> Bool {
        guard x > 0, x < size.width else { return false }
        return coveringCell(x: x, y: y) != nil
    }

    /// The column of the character whose cells reach over column `x`, if any.
    private func coveringCell(x: Int, y: Int) -> Int? {
        for start in stride(from: x - 1, through: max(0, x - DisplayWidth.maximumClusterWidth + 1), by: -1) {
            let width = self[start, y].width
            if width > 1 { return start + width > x ? start : nil }
            if !self[start, y].character.isASCII || self[start, y].character != " " { return nil }
        }
        return nil
    }

    /// Writes `text` from column `x` on row `y`, stopping before column `limit` (default: the
    /// right edge). A wide character that does not fit is replaced by a blank. Returns the
    /// column after the last one written.
    @discardableResult
    mutating func put<S: Sequence<Character>>(_ text: S, x: Int, y: Int, style: CellStyle, limit: Int? = nil) -> Int {
        let end = min(limit ?? size.width, size.width)
        guard y >= 0, y < size.height else { return x }
        var column = max(0, x)
        // Writing into the right half of a wide character leaves its left half meaningless.
        if column > 0, column < end, let start = coveringCell(x: column, y: y) {
            cells[y * size.width + start] = Cell(character: " ", style: cells[y * size.width + start].style)
        }
        for character in text {
            let width = DisplayWidth.of(character)
            if width == 0 { continue }
            if column + width > end {
                while column < end {
                    cells[y * size.width + column] = Cell(character: " ", style: style)
                    column += 1
                }
                break
            }
            cells[y * size.width + column] = Cell(character: character, style: style)
            for covered in 1..<max(1, width) {
                cells[y * size.width + column + covered] = Cell(character: " ", style: style)
            }
            column += width
        }
        return column
    }

    /// Gives the cells `x..<limit` of row `y` a style, keeping their characters.
    mutating func paint(y: Int, from x: Int, to limit: Int, style: CellStyle) {
        guard y >= 0, y < size.height else { return }
        for column in max(0, x)..<max(max(0, x), min(limit, size.width)) {
            cells[y * size.width + column].style = style
        }
    }

    /// The text of row `y`, wide characters once, trailing blanks dropped (for tests and logs).
    func line(_ y: Int) -> String {
        var text = ""
        var x = 0
        while x < size.width {
            text.append(self[x, y].character)
            x += self[x, y].width
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// All rows as text.
    var lines: [String] {
        (0..<size.height).map(line)
    }

    public static func == (lhs: Grid, rhs: Grid) -> Bool {
        lhs.size == rhs.size && lhs.cells == rhs.cells && lhs.cursorPosition == rhs.cursorPosition
    }
}

extension String {
    /// The longest prefix that fits in `width` columns, ending in "…" when something was cut.
    /// Reads no further than the width, so a 100 KB caption costs no more than a short one.
    func truncated(toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        var used = 0
        var endWithEllipsis = startIndex  // longest prefix that leaves room for "…"
        var index = startIndex
        while index < endIndex {
            let characterWidth = DisplayWidth.of(self[index])
            if used + characterWidth > width {
                return String(self[..<endWithEllipsis]).trimmingTrailingSpaces() + "…"
            }
            used += characterWidth
            index = self.index(after: index)
            if used <= width - 1 { endWithEllipsis = index }
        }
        return self
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
