import Foundation
import Testing

@testable import HotTaskCore

/// The filter's fold of each scalar comes from a table (`ScalarFoldTable.swift`, made by
/// `Packaging/make-scalar-folds.swift` with the full Foundation); it must be the fold the full
/// Foundation makes now, for every scalar but private use and unassigned ones.
@Suite("The filter's fold table")
struct ScalarFoldTableTests {
    @Test("each scalar folds as Foundation folds it")
    func eachScalarFoldsAsFoundation() {
        var differing: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch scalar.properties.generalCategory {
            case .privateUse, .unassigned, .surrogate: continue
            default: break
            }
            let lone = scalar.properties.generalCategory == .nonspacingMark && scalar.properties.canonicalCombiningClass.rawValue != 0
            let expected =
                lone
                ? []
                : Array(
                    String(Character(scalar)).precomposedStringWithCompatibilityMapping
                        .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).utf8)
            if ScalarFolds.fold(scalar) != expected { differing.append(String(value, radix: 16)) }
        }
        #expect(differing.isEmpty, "\(differing.count) differ: \(differing.prefix(10))")
    }

    @Test("a caption folds for matching: case, accents, width and compatibility forms")
    func captionsFold() {
        #expect(String(decoding: TaskFilter.foldedBytes("Ｃafé ＭÜNCHEN ﬁx ①"), as: UTF8.self) == "cafe munchen fix 1")
    }
}
