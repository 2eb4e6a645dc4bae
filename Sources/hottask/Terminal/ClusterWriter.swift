import CNcursesw
import FoundationEssentials
import Glibc
import HotTaskCore
import HotTaskUI

/// Grapheme clusters that ncurses cannot carry, written to the terminal by HotTask itself.
///
/// ncurses splits text by each code point's `wcwidth` (a skin-tone modifier is 2 columns to
/// glibc, so it would land in the next cell) and a cell holds at most 5 code points (a family
/// emoji has 7). Such a cluster is given to ncurses as blanks of its width, and after ncurses'
/// refresh this writes it whole at its cell, followed by the rest of its row, so that a
/// terminal drawing the cluster wider than two columns still shows the row's text at the right
/// columns. Rows written this way are handed back to ncurses whole on the next frame
/// (`wredrawln`), so its picture of the screen never keeps a stale cluster.
struct ClusterWriter {
    /// Rows that got direct writes in the last frame.
    private var rowsWritten: Set<Int> = []
    /// The cells of this frame that need writing, by row.
    private var pending: [(x: Int, y: Int)] = []

    /// Whether ncurses would draw `cell` differently from the grid: a wide character with
    /// marks, its first code point's width disagrees, a later code point is not zero-width, or
    /// there are too many for a cell.
    static func needsDirectWrite(_ cell: Cell) -> Bool {
        if cell.character.isASCII { return false }
        let scalars = cell.character.unicodeScalars
        guard let first = scalars.first else { return false }
        // ncurses hangs a mark that follows a wide character on the character's second cell,
        // which it never writes: `か゛`, jamo syllables and `漢́` lost their marks.
        if cell.width >= 2, scalars.count > 1 { return true }
        if hc_wcwidth(wchar_t(bitPattern: first.value)) != Int32(cell.width) { return true }
        var count = 1
        for scalar in scalars.dropFirst() {
            count += 1
            if hc_wcwidth(wchar_t(bitPattern: scalar.value)) != 0 || count > maxCodePointsPerCell { return true }
        }
        return false
    }

    /// ncurses' CCHARW_MAX.
    private static let maxCodePointsPerCell = 5

    /// Before ncurses draws the frame: the rows written directly last time are thrown away in
    /// ncurses' picture, so it rewrites them whole.
    mutating func beginFrame(height: Int) {
        for y in rowsWritten where y < height { wredrawln(hc_stdscr(), Int32(y), 1) }
        rowsWritten = []
        pending = []
    }

    mutating func add(x: Int, y: Int) {
        pending.append((x, y))
        rowsWritten.insert(y)
    }

    /// After ncurses' refresh: each pending cluster and the rest of its row, then the cursor
    /// back where ncurses believes it is, and the attributes back to normal (as ncurses leaves
    /// them).
    func finishFrame(_ grid: Grid, palette: Palette) {
        guard !pending.isEmpty else { return }
        TerminalBytes.buffer.removeAll(keepingCapacity: true)
        var rowDone: Int?
        for (startX, y) in pending where rowDone != y {
            rowDone = y
            var x = startX
            var lastStyle: CellStyle?
            var needsMove = true
            while x < grid.size.width {
                // The bottom-right cell is left alone: writing it scrolls some terminals.
                if y == grid.size.height - 1 && x == grid.size.width - 1 { break }
                let cell = grid[x, y]
                let direct = !cell.character.isASCII
                if needsMove || direct { TerminalBytes.moveCursor(y: y, x: x) }
                if cell.style != lastStyle {
                    palette.emit(cell.style)
                    lastStyle = cell.style
                }
                TerminalBytes.buffer.append(contentsOf: String(cell.character).utf8)
                // After a non-ASCII cell the terminal's idea of its width may differ from ours.
                needsMove = direct
                x += cell.width
            }
        }
        vid_puts(HC_A_NORMAL, 0, nil, TerminalBytes.append)
        TerminalBytes.moveCursor(y: Int(getcury(hc_stdscr())), x: Int(getcurx(hc_stdscr())))
        try? Descriptor.write(TerminalBytes.buffer, to: STDOUT_FILENO)
    }
}

/// The bytes of one direct write. A global because ncurses' output callbacks are C function
/// pointers, which cannot carry context; only the UI thread draws.
enum TerminalBytes {
    nonisolated(unsafe) static var buffer: [UInt8] = []

    static let append: @convention(c) (Int32) -> Int32 = { byte in
        TerminalBytes.buffer.append(UInt8(truncatingIfNeeded: byte))
        return byte
    }

    static func moveCursor(y: Int, x: Int) {
        guard let move = hc_cursor_address(Int32(y), Int32(x)) else { return }
        tputs(move, 1, append)
    }
}
