import Foundation
import TestSupport
import Testing

/// Issue 50: a todo.txt line of tens of megabytes (a hostile or broken file) is read in memory
/// proportional to it and in time linear in it. A 50 MB line took 697 MB and 12 s, its words held
/// as an array of Strings and the line copied for each step. Ratios and bounds against the
/// file's own size only, from wait4: never a wall time.
@Suite("A long todo.txt line", .serialized)
struct LongLineImportTests {
    let folder = TemporaryFolder()

    /// A one-line todo.txt of `megabytes` of words (`+tags` among them with `tagged`).
    private func file(megabytes: Int, tagged: Bool) -> String {
        let words = tagged ? ["alpha", "beta", "+proj", "gamma", "@home", "delta"] : ["alpha", "beta", "gamma", "delta"]
        var line = ""
        line.reserveCapacity(megabytes << 20 + 16)
        var index = 0
        while line.utf8.count < megabytes << 20 {
            line += words[index % words.count] + " "
            index += 7
        }
        return folder.write("(A) " + line + "due:2026-12-01\n", to: "line-\(megabytes)-\(tagged).txt")
    }

    /// The import's CPU (wait4) and peak resident size. The size comes from GNU time, which
    /// forks: a child posix_spawn makes (vfork) starts with this test process's high-water mark.
    private func importing(_ path: String) -> (cpuSeconds: Double, peakKiB: Int) {
        let store = folder.path("store-\(URL(fileURLWithPath: path).lastPathComponent).json")
        let report = folder.path("peak-\(URL(fileURLWithPath: path).lastPathComponent)")
        let run = runProcessMeasuringCPU(
            ["/usr/bin/time", "-f", "%M", "-o", report, HotTaskBinary.url.path, "--file", store, "--import", path], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Imported from todo.txt \(path): added 1, updated 0, unchanged 0, skipped 0\n")
        let peak = (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Int($0.split(separator: "\n").last ?? "") }
        #expect(peak != nil, "GNU time (/usr/bin/time) wrote no peak; make test-deps installs it")
        return (run.cpuSeconds, peak ?? 0)
    }

    /// With tags among its words and a due date: the caption without the tags, and the words as
    /// they came (kept to be written back), are each a copy; the words as an older HotTask read
    /// them are known by their digest only. A line of tags took five times its size.
    @Test("a 24 MB line, plain or with tags among its words, is imported in at most twice its size plus 64 MB", arguments: [false, true])
    func memoryIsProportionalToTheLine(tagged: Bool) {
        let path = file(megabytes: 24, tagged: tagged)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let peak = importing(path).peakKiB
        #expect(peak > 0)
        #expect(peak <= 2 * size / 1024 + 65_536, "peak \(peak) KiB for a line of \(size / 1024) KiB")
    }

    @Test("ten times the line with tags among its words costs at most 25 times the CPU (quadratic: 100)")
    func timeIsLinearInTheLine() {
        let small = importing(file(megabytes: 2, tagged: true)).cpuSeconds
        let large = importing(file(megabytes: 20, tagged: true)).cpuSeconds
        #expect(large / max(small, 0.01) <= 25, "2 MB: \(small) s; 20 MB: \(large) s of CPU")
    }
}
