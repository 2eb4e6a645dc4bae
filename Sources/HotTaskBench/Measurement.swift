import Foundation

/// Repeated timings of one operation, and the row it makes in the report.
struct Measurement {
    let operation: String
    let size: String
    var milliseconds: [Double] = []
    /// Peak resident memory in KiB, when measured.
    var peakKiB: Int?
    let target: Double?
    /// Peak memory allowed, in MiB (issue 14: 80 at 100,000 tasks).
    var memoryTarget: Double? = nil

    var median: Double {
        let sorted = milliseconds.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    func percentile(_ fraction: Double) -> Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    static let header =
        "| operation | tasks | median ms | min ms | max ms | p99 ms | target ms | | peak MiB | target MiB | |\n|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|"

    var row: String {
        let sorted = milliseconds.sorted()
        let mebibytes = peakKiB.map { Double($0) / 1024 }
        let memory = mebibytes.map { String(format: "%.1f", $0) } ?? "–"
        let verdict = target.map { median <= $0 ? "ok" : "**over**" } ?? ""
        let memoryVerdict = memoryTarget.map { limit in mebibytes.map { $0 <= limit ? "ok" : "**over**" } ?? "not measured" } ?? ""
        return "| \(operation) | \(size) | \(format(median)) | \(format(sorted.first ?? .nan)) | \(format(sorted.last ?? .nan)) | "
            + "\(format(percentile(0.99))) | \(target.map(format) ?? "–") | \(verdict) | \(memory) | "
            + "\(memoryTarget.map { String(format: "%.0f", $0) } ?? "–") | \(memoryVerdict) |"
    }

    private func format(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f", value) : String(format: "%.0f", value)
    }
}
