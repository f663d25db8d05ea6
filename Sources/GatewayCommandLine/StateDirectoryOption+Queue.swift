import GatewayPipeline
import OfflineQueue

/// The queue inside the state directory.
extension StateDirectoryOption {
    /// The queue file.
    package var queuePath: String { directory + "/queue.sqlite" }

    /// The held queue (samples waiting for the clock).
    package var heldQueuePath: String { directory + "/" + HeldSamples.fileName }

    /// Opens the queue (or another queue file of the state directory) next to a possibly
    /// running daemon, turning failures into exit statuses.
    package func attachQueue(path: String? = nil) throws -> OfflineQueue {
        do {
            return try OfflineQueue(path: path ?? queuePath, access: .attach)
        } catch {
            throw QueueFailure.exit(for: error)
        }
    }
}
