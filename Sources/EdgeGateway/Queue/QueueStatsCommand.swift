import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayCommandLine
import GatewayPipeline
import OfflineQueue
import OutputFormats

/// `edge-gateway queue stats`: how much waits, how old it is, what was lost to the bounds.
struct QueueStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print pending, leased, dead and evicted counts, the oldest pending age and the file size.",
        discussion: """
            --json prints one object: {"pending":N,"leased":N,"dead":N,"evicted":N,\
            "oldest_pending_age_s":SECONDS or null,"db_bytes":N,"held":N,"evicted_by_stream":{...}}
            held counts the samples waiting for the clock to synchronise in \
            \(HeldSamples.fileName) (not uploaded until then; `queue release-held` sends them now).
            """
    )

    @OptionGroup var state: StateDirectoryOption

    @Flag(name: .long, help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let held = try await heldCount()
        try await QueueFailure.run(try state.attachQueue()) { queue in
            let stats = try await queue.stats()
            StandardOutput.writeLine(json ? Self.jsonLine(stats, held: held) : Self.humanText(stats, held: held))
        }
    }

    /// Samples in the held queue, pending or leased; 0 when there is none.
    private func heldCount() async throws -> Int {
        guard FileManager.default.fileExists(atPath: state.heldQueuePath) else { return 0 }
        var count = 0
        try await QueueFailure.run(try state.attachQueue(path: state.heldQueuePath)) { held in
            let stats = try await held.stats()
            count = stats.pending + stats.leased
        }
        return count
    }

    static func jsonLine(_ stats: QueueStats, held: Int) -> String {
        var line = JSONLine()
        line.add("pending", .integer(stats.pending))
        line.add("leased", .integer(stats.leased))
        line.add("dead", .integer(stats.dead))
        line.add("evicted", .integer(stats.evicted))
        line.add("oldest_pending_age_s", stats.oldestPendingAgeNanoseconds.map { .number(DecimalText.seconds(nanoseconds: $0)) } ?? .null)
        line.add("db_bytes", .integer(Int(stats.databaseBytes)))
        line.add("held", .integer(held))
        var byStream = JSONLine()
        for (stream, count) in stats.evictedByStream.sorted(by: { $0.key < $1.key }) {
            byStream.add(stream, .integer(count))
        }
        return String(line.text.dropLast()) + ",\"evicted_by_stream\":" + byStream.text + "}"
    }

    static func humanText(_ stats: QueueStats, held: Int) -> String {
        var lines = [
            "pending              \(stats.pending)",
            "leased               \(stats.leased)",
            "dead                 \(stats.dead)",
            "evicted              \(stats.evicted)",
            "oldest pending age   \(stats.oldestPendingAgeNanoseconds.map { DecimalText.seconds(nanoseconds: $0) + " s" } ?? "-")",
            "database bytes       \(stats.databaseBytes)",
            "held for the clock   \(held)" + (held > 0 ? " (not uploaded until the clock synchronises; `queue release-held` sends them now)" : ""),
        ]
        for (stream, count) in stats.evictedByStream.sorted(by: { $0.key < $1.key }) {
            lines.append("evicted from \(stream)  \(count)")
        }
        return lines.joined(separator: "\n")
    }
}
