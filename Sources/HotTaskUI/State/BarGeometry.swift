import HotTaskCore

/// Where the input row and the view bar put their parts (the prompt, the field, [Add], the
/// filter and the sort control), worked out from the state alone: `render` draws them there,
/// and `update` keeps each cursor inside its field and reads a click by them, without calling
/// into render.
enum BarGeometry {
    static let prompt = "+ "
    static let addMarker = "[Add]"
    static let filterPrompt = "/ "

    /// One label of the sort control: "[Active]" or " Other ", all the same width per label.
    struct Segment {
        let label: String
        let active: Bool
        /// A toggle rather than a mode: set apart by a space.
        var isToggle = false

        var width: Int { DisplayWidth.of(label) + 2 + (isToggle ? 1 : 0) }
    }

    /// The sort control's segments and the column it starts at (the width when not shown):
    /// every mode when it fits beside a usable filter, else only what differs from the
    /// default (Manual, completed in place).
    static func sortControl(_ state: AppState, width: Int) -> ([Segment], Int) {
        var segments = SortMode.allCases.map { Segment(label: $0.title, active: $0 == state.view.sort) }
        if state.view.completedLast { segments.append(Segment(label: "done last", active: true, isToggle: true)) }
        if segments.totalWidth + 20 > width {
            segments = segments.filter { $0.active && $0.label != SortMode.manual.title }
        }
        guard !segments.isEmpty, segments.totalWidth + 8 <= width else { return (segments, width) }
        return (segments, width - 1 - segments.totalWidth)
    }

    /// Columns of each line editor's field.
    static func fieldWidths(_ state: AppState) -> (input: Int, filter: Int, editor: Int) {
        let width = state.size.width
        let filterStart = 1 + DisplayWidth.of(" " + filterPrompt)
        let filterEnd = sortControl(state, width: width).1 - 2
        return (width - DisplayWidth.of(prompt) - DisplayWidth.of(addMarker) - 2, filterEnd - filterStart, width - 7)
    }
}

extension [BarGeometry.Segment] {
    fileprivate var totalWidth: Int { reduce(0) { $0 + $1.width } }
}
