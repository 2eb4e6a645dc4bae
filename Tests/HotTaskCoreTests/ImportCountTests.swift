import Testing

@testable import HotTaskCore

/// The count that refuses an import over the limit before it is parsed: each shape of file
/// counts its tasks, and nothing else (annotations, braces in text, a calendar's lines).
@Suite("import count before parsing")
struct ImportCountTests {
    private func passes(_ text: String, limit: Int) -> Bool {
        var counter = ImportCount.Counter(limit: limit)
        var bytes = Array(text.utf8)
        // Fed in two pieces, as reads cut a file anywhere.
        let cut = bytes.count / 2
        let first = bytes.withUnsafeMutableBufferPointer { counter.feed(UnsafeBufferPointer(rebasing: $0[..<cut])) }
        let second = bytes.withUnsafeMutableBufferPointer { counter.feed(UnsafeBufferPointer(rebasing: $0[cut...])) }
        return first || second || counter.finish()
    }

    private let annotated = #"{"description":"a {[\"}","annotations":[{"description":"x"},{"description":"y"}],"tags":["a"]}"#

    @Test func eachShapeCountsItsTasksOnly() {
        let export = "[" + Array(repeating: annotated, count: 3).joined(separator: ",") + "]"
        let lines = Array(repeating: annotated, count: 3).joined(separator: "\n")
        let document = #"{"version":2,"tasks":["# + Array(repeating: #"{"caption":"}{","tags":["x"]}"#, count: 3).joined(separator: ",") + "]}"
        let calendar =
            "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:VTODO\r\nSUMMARY:a\r\nDTSTART:1\r\nEND:VTODO\r\n", count: 3) + "END:VCALENDAR\r\n"
        let todo = "(A) one\n\n  \ntwo +x\nthree"
        let counted = [export, lines, document, calendar, todo].map { text in (2...3).map { passes(text, limit: $0) } }
        // Over a limit of 2, not over 3: three tasks each.
        #expect(counted == Array(repeating: [true, false], count: 5))
    }
}
