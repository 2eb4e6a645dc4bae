import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// The count that refuses an import over the limit before it is parsed: each shape of file
/// counts its tasks, and nothing else (annotations, braces in text, a calendar's lines).
@Suite("import count before parsing")
struct ImportCountTests {
    /// Whether the count passes `limit`, the same however the reads cut the file: it is fed
    /// in two pieces cut at every place (inside an escape, a string, a line).
    private func passes(_ text: String, limit: Int) -> Bool {
        let bytes = Array(text.utf8)
        let answers = Set(
            (0...bytes.count).map { cut in
                var counter = ImportCount.Counter(limit: limit)
                return bytes.withUnsafeBufferPointer { whole in
                    let first = counter.feed(UnsafeBufferPointer(rebasing: whole[..<cut]))
                    let second = counter.feed(UnsafeBufferPointer(rebasing: whole[cut...]))
                    return first || second || counter.finish()
                }
            })
        #expect(answers.count == 1, "the count changed with where the file was cut")
        return answers.first!
    }

    // Long enough for the eight-bytes-a-step search, with braces, escaped quotes and backslashes inside.
    private let annotated =
        #"{"description":"a long description {[\" with \\ and \"quotes\"}","annotations":[{"description":"x"},{"description":"y"}],"#
        + #""tags":["a"]}"#

    /// Three tasks in each shape: a Taskwarrior export, its one object a line, a HotTask
    /// document, a calendar, todo.txt lines.
    private var threeTasksEach: [String] {
        let export = "[" + Array(repeating: annotated, count: 3).joined(separator: ",") + "]"
        let lines = Array(repeating: annotated, count: 3).joined(separator: "\n")
        let document = #"{"version":2,"tasks":["# + Array(repeating: #"{"caption":"}{","tags":["x"]}"#, count: 3).joined(separator: ",") + "]}"
        let calendar =
            "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:VTODO\r\nSUMMARY:a\r\nDTSTART:1\r\nEND:VTODO\r\n", count: 3) + "END:VCALENDAR\r\n"
        let todo = "(A) one, a line longer than its start\n\n  \ntwo +x\nthree"
        return [export, lines, document, calendar, todo]
    }

    @Test func eachShapeCountsItsTasksOnly() {
        let counted = threeTasksEach.map { text in (2...3).map { passes(text, limit: $0) } }
        // Over a limit of 2, not over 3: three tasks each.
        #expect(counted == Array(repeating: [true, false], count: 5))
    }

    /// The bound read before the count never says a file is within a limit its tasks pass: it
    /// is at least the count, however the reads cut the file (a buffer of 7 bytes here).
    @Test func theBoundIsNeverBelowTheCount() throws {
        let folder = TemporaryFolder()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 7, alignment: 16)
        defer { buffer.deallocate() }
        for (index, text) in threeTasksEach.enumerated() {
            let descriptor = open(folder.write("  \n" + text, to: "file-\(index)"), O_RDONLY)
            defer { close(descriptor) }
            let bound = ImportCount.upperBound(descriptor, stoppingPast: 1000, buffer: buffer)
            #expect(bound.map { $0 >= 3 } == true, "\(bound.map(String.init) ?? "nil") for \(text)")
            #expect(lseek(descriptor, 0, SEEK_SET) == 0)
            #expect(ImportCount.upperBound(descriptor, stoppingPast: 2, buffer: buffer) == nil, "past a limit of 2: \(text)")
        }
    }
}
