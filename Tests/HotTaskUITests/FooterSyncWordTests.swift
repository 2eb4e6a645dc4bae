import Foundation
import Testing

@testable import HotTaskUI

/// The sync's word at the footer's right end stands apart from the keys: at every width, two
/// spaces or more before it, as between the keys themselves.
@Suite("The footer's sync word")
struct FooterSyncWordTests {
    @Test(arguments: ["synced 20:17", "sync failed 20:17", "syncing…"])
    func theSyncWordIsTwoColumnsFromTheKeysAtEveryWidth(summary: String) {
        var state = makeState()
        state.syncStatus = SyncStatus(summary: summary)
        for width in 40...160 {
            state.size = Size(width: width, height: 20)
            let footer = AppRender.render(state, size: state.size).lines.last ?? ""
            guard let range = footer.range(of: summary) else { continue }
            let before = footer[..<range.lowerBound]
            let keys = before.trimmingCharacters(in: .whitespaces)
            #expect(keys.isEmpty || before.hasSuffix("  "), "\(width) columns: \(footer)")
        }
        // Shown where it fits: at 80 columns.
        state.size = Size(width: 80, height: 20)
        #expect(AppRender.render(state, size: state.size).lines.last?.contains(summary) == true)
    }
}
