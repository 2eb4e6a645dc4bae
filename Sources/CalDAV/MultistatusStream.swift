import FoundationEssentials
import Glibc
import HotTaskCore

/// A 207 answer read as it comes (the transport hands it each piece): every `<response>` is
/// made a `DAV.Response` when it ends, and its XML is let go. An answer's size is then no
/// limit; what it may make HotTask keep is (`maximumKept`).
final class MultistatusStream {
    /// The most an answer's responses may take in memory, and the most one unfinished response
    /// may hold. A listing of the store's 250,000 tasks keeps about 50 MB.
    static let maximumKept = 256 << 20

    private let maximumKept: Int
    private var reader = XMLReader()
    private var responses: [DAV.Response] = []
    private var syncToken: String?
    private var kept = 0
    /// Set when the answer would make HotTask keep more than `maximumKept`.
    private(set) var tooLarge = false
    private var broken = false

    /// `maximumKept`: smaller in tests.
    init(maximumKept: Int = MultistatusStream.maximumKept) {
        self.maximumKept = maximumKept
    }

    /// Reads `piece`; false to stop reading (not well-formed, or more than HotTask keeps).
    func consume(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard !broken && !tooLarge else { return false }
        guard reader.feed(piece) else {
            broken = true
            return false
        }
        take(reader.takeFinishedTopChildren())
        if kept + reader.held > maximumKept { tooLarge = true }
        return !tooLarge
    }

    /// The multistatus once the answer has come whole, nil when it is not one.
    func finish() -> DAV.Multistatus? {
        guard !broken && !tooLarge, let root = reader.finish(), root.name == "multistatus", root.namespace == DAV.dav else { return nil }
        take(reader.takeFinishedTopChildren())
        return tooLarge ? nil : DAV.Multistatus(responses: responses, syncToken: syncToken)
    }

    private func take(_ nodes: [XMLNode]) {
        for node in nodes where node.namespace == DAV.dav {
            if node.name == "response", let response = DAV.Response(node) {
                kept += response.size
                responses.append(response)
            } else if node.name == "sync-token" {
                syncToken = node.text.trimmingBlanksAndNewlines()
            }
        }
        if kept > maximumKept { tooLarge = true }
    }
}
