import HotTaskCore

/// Bracketed paste for `InputDecoder`: everything between `CSI 200~` and `CSI 201~` is one
/// `.pasted` event, never keys, kept up to `maximumPasteLength`.
extension InputDecoder {
    mutating func paste(_ scalar: Unicode.Scalar) -> [Event] {
        if scalar == Self.pasteEnd[endMarkerMatched] {
            endMarkerMatched += 1
            guard endMarkerMatched == Self.pasteEnd.count else { return [] }
            // Whether this ends the paste is known only when nothing follows at once.
            endMarkerMatched = 0
            phase = .pasteEnding
            return []
        }
        // Not the marker after all: what looked like its start is text. Only ESC starts it,
        // and ESC appears nowhere else in it, so a new match can begin only here.
        for matched in Self.pasteEnd.prefix(endMarkerMatched) { keep(matched) }
        endMarkerMatched = 0
        if scalar == Self.pasteEnd[0] {
            endMarkerMatched = 1
        } else {
            keep(scalar)
        }
        return []
    }

    mutating func keep(_ scalar: Unicode.Scalar) {
        if pasted.count < Self.maximumPasteLength {
            pasted.append(scalar)
        } else {
            pasteCut = true
        }
    }

    mutating func finishPaste() -> [Event] {
        for matched in Self.pasteEnd.prefix(endMarkerMatched) { keep(matched) }
        endMarkerMatched = 0
        let text = EscapeSequences.removed(from: pasted)
        let cut = pasteCut
        pasted.removeAll()
        pasteCut = false
        return text.isEmpty && !cut ? [] : [.pasted(text, cut: cut)]
    }
}
