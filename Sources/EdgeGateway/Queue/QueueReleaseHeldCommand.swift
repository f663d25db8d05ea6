import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayCommandLine
import GatewayPipeline
import GatewayStatus
import OfflineQueue
import OutputFormats

/// `edge-gateway queue release-held`: sends the samples held for an unsynchronised clock now,
/// for a box whose clock the operator knows is right (or that will never synchronise).
struct QueueReleaseHeldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release-held",
        abstract: "Move the samples held for the clock into the upload queue now.",
        discussion: """
            Samples captured while the system clock was not synchronised wait in \
            <state-dir>/\(HeldSamples.fileName). The daemon releases them when the clock \
            synchronises, or when [gateway] hold_until_clock_sync = false. This releases them \
            now, trusting the clock as it is: samples from this boot are re-stamped from the \
            monotonic clock; samples from an earlier boot become dead letters \
            (clock-unrepairable), which `queue retry-dead --reason clock-unrepairable` sends \
            with the time they were stamped with. Safe beside the running daemon.
            """
    )

    @OptionGroup var state: StateDirectoryOption

    func run() async throws {
        guard FileManager.default.fileExists(atPath: state.heldQueuePath) else {
            StandardOutput.writeLine("no held samples (no \(HeldSamples.fileName))")
            return
        }
        try await QueueFailure.run(try state.attachQueue(path: state.heldQueuePath)) { held in
            try await QueueFailure.run(try state.attachQueue()) { queue in
                let released = try await HeldSamples(held: held, queue: queue).release(now: CaptureClock().now)
                StandardOutput.writeLine(
                    "released \(released.total) held sample(s): \(released.repaired) re-stamped and queued, "
                        + "\(released.unrepairable) from an earlier boot to dead letters, \(released.undecodable) undecodable")
                if released.repaired > 0 { RunningDaemon.nudge(stateDirectory: state.directory) }
            }
        }
    }
}
