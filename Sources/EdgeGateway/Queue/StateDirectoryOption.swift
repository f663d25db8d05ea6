import ArgumentParser
import Foundation
import OfflineQueue

/// `--state-dir`: where the gateway keeps its state, the queue among it.
struct StateDirectoryOption: ParsableArguments {
    /// Used when neither `--state-dir` nor `EDGE_GATEWAY_STATE_DIR` is given.
    static let defaultDirectory = "/var/lib/edge-gateway"

    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "The gateway's state directory (default: $EDGE_GATEWAY_STATE_DIR, else \(defaultDirectory)).",
        valueName: "DIR"))
    var stateDirectory: String?

    /// The directory in effect.
    var directory: String {
        stateDirectory ?? ProcessInfo.processInfo.environment["EDGE_GATEWAY_STATE_DIR"] ?? Self.defaultDirectory
    }

    /// The queue file inside it.
    var queuePath: String { directory + "/queue.sqlite" }

    /// Opens the queue next to a possibly running daemon, turning failures into exit statuses.
    func attachQueue() throws -> OfflineQueue {
        do {
            return try OfflineQueue(path: queuePath, access: .attach)
        } catch {
            throw QueueFailure.exit(for: error)
        }
    }
}
