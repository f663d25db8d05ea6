import Foundation

/// The benchmark's figures per scenario: the median of its runs for each figure, as the issue's
/// comparison with a Python gateway is stated (60 s windows, medians of 3).
struct FootprintTable {
    let runs: [FootprintRun]

    /// A Markdown table, one row per scenario and what was measured, in the order they ran.
    var markdown: String {
        var keys: [String] = []
        for run in runs where !keys.contains(run.key) { keys.append(run.key) }
        var lines = [
            "| scenario | measured | runs | samples/s | CPU µs/sample | CPU µs/s | RSS MB (median) | private dirty MB | bytes written/sample | bytes written/s | wake-ups/s | threads | exactly once |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for key in keys {
            let group = runs.filter { $0.key == key }
            let rate = Self.median(group.map { Double($0.samples) / $0.seconds })
            let perSample = Self.median(group.compactMap(\.cpuMicrosecondsPerSample))
            let written = Self.median(group.compactMap(\.bytesWrittenPerSample))
            let cells = [
                group[0].scenario.name, group[0].subject, "\(group.count)", Self.format(rate, digits: 1),
                perSample.map { Self.format($0, digits: 1) } ?? "–",
                Self.format(Self.median(group.map(\.cpuMicrosecondsPerSecond)), digits: 0),
                Self.format(Self.median(group.map { Double($0.window.medianResidentBytes) / 1e6 }), digits: 1),
                Self.format(Self.median(group.map { Double($0.window.medianPrivateDirtyBytes) / 1e6 }), digits: 1),
                written.map { Self.format($0, digits: 0) } ?? "–",
                Self.format(Self.median(group.map(\.bytesWrittenPerSecond)), digits: 0),
                Self.format(Self.median(group.map(\.wakeUpsPerSecond)), digits: 1),
                Self.format(Self.median(group.map { Double($0.window.threadCount) }), digits: 0),
                "\(group.filter(\.exactlyOnce).count)/\(group.count)",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// One line for a finished run, printed as it ends so a long benchmark shows progress.
    static func line(_ run: FootprintRun) -> String {
        let perSample = run.cpuMicrosecondsPerSample.map { Self.format($0, digits: 1) + " µs/sample, " } ?? ""
        let written = run.bytesWrittenPerSample.map { Self.format($0, digits: 0) + " B written/sample, " } ?? ""
        return "\(run.scenario.name), \(run.subject): \(run.samples) samples in \(Self.format(run.seconds, digits: 1)) s, " + perSample
            + "\(Self.format(run.cpuMicrosecondsPerSecond, digits: 0)) µs CPU/s, RSS \(Self.format(Double(run.window.medianResidentBytes) / 1e6, digits: 1)) MB, "
            + "private dirty \(Self.format(Double(run.window.medianPrivateDirtyBytes) / 1e6, digits: 1)) MB, " + written
            + "\(Self.format(run.wakeUpsPerSecond, digits: 1)) wake-ups/s, \(run.window.threadCount) threads, "
            + (run.exactlyOnce ? "all \(run.accepted) samples stored exactly once" : "NOT stored exactly once")
            + (run.dropped > 0 ? "; \(run.dropped) notifications DROPPED (the socket was full)" : "")
    }

    private static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func format(_ value: Double?, digits: Int) -> String {
        guard let value else { return "–" }
        return String(format: "%.\(digits)f", value)
    }
}
