import ArgumentParser
import GatewayCommandLine
import GatewayStatus
import OfflineQueue
import OutputFormats

/// `edge-gateway queue retry-dead`: after fixing what made the server refuse records (say a
/// patient binding), send them again.
struct QueueRetryDeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry-dead",
        abstract: "Move dead letters back to pending so the uploader sends them again.",
        discussion: "Without --reason every dead letter moves. Prints how many moved."
    )

    @OptionGroup var state: StateDirectoryOption

    @Option(name: .long, help: ArgumentHelp("Only dead letters whose reason contains this text (case-sensitive).", valueName: "SUBSTRING"))
    var reason: String?

    func run() async throws {
        try await QueueFailure.run(try state.attachQueue()) { queue in
            let moved = try await queue.retryDead(DeadLetterFilter(reasonContains: reason))
            StandardOutput.writeLine("moved \(moved) dead letter(s) back to pending")
            if moved > 0 { RunningDaemon.nudge(stateDirectory: state.directory) }
        }
    }
}
