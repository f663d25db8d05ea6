import ArgumentParser
import GatewayCommandLine

/// `edge-gateway queue`: lets a technician look into the offline queue and repair it, while the
/// daemon keeps running (SQLite's WAL lets this process read and write alongside it).
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Inspect the offline sample queue, retry dead letters, export or release held samples.",
        discussion: """
            The queue is <state-dir>/queue.sqlite. Exit status: 0 ok, 64 bad usage, 65 damaged \
            queue or undecodable records, 66 no queue in the state directory, 73 a queue this \
            user may not open, 74 I/O error.

            Examples:
              edge-gateway queue stats --json
              edge-gateway queue dead
              edge-gateway queue retry-dead --reason "HTTP 400"
              edge-gateway queue export --format csv > samples.csv
              edge-gateway queue release-held
              edge-gateway queue import
            """,
        subcommands: [
            QueueStatsCommand.self, QueueDeadCommand.self, QueueRetryDeadCommand.self,
            QueueExportCommand.self, QueueReleaseHeldCommand.self, QueueImportCommand.self,
        ]
    )
}
