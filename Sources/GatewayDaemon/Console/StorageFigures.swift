import GatewayStatus
import OfflineQueue
import Synchronization

/// The queue's counts, the state disk's room and the damaged queue files moved aside, as the
/// console shows them: read at most once per `maximumAge` however many pages are open, since
/// reading them wakes the storage thread (a transaction on the queue file) and they change
/// slowly next to a strap's heart rate, which the console sends every second from memory.
final class StorageFigures: Sendable {
    typealias Figures = (queue: QueueStats?, disk: DiskSpace?, movedAside: [MovedAsideQueue])

    private let queue: OfflineQueue
    private let stateDirectory: String
    private let maximumAge: Duration
    private let kept = Mutex<(figures: Figures, readAt: ContinuousClock.Instant)?>(nil)

    init(queue: OfflineQueue, stateDirectory: String, maximumAge: Duration = .seconds(5)) {
        self.queue = queue
        self.stateDirectory = stateDirectory
        self.maximumAge = maximumAge
    }

    /// The figures read within `maximumAge`, or read now.
    func current() async -> Figures {
        let now = ContinuousClock.now
        if let kept = kept.withLock({ $0 }), kept.readAt.duration(to: now) < maximumAge { return kept.figures }
        let figures: Figures = (try? await queue.stats(), DiskSpace(of: stateDirectory), MovedAsideQueue.find(in: stateDirectory))
        kept.withLock { $0 = (figures, now) }
        return figures
    }
}
