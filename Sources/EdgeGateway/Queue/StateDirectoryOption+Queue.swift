import OfflineQueue

/// The queue inside the state directory.
extension StateDirectoryOption {
    /// The queue file.
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
