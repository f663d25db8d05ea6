import GatewayStatus
import OfflineQueue
import Synchronization

/// The queue's counts, the state disk's room and the damaged queue files moved aside, as the
/// console shows them: read at most once per `maximumAge` however many pages are open, since
/// reading them wakes the storage thread (a transaction on the queue file) and they change
/// slowly next to a strap's heart rate, which the console sends every second from memory. The
/// files moved aside, a listing of the state directory that only a damaged queue changes, are
/// looked for at most once per `movedAsideMaximumAge`.
final class StorageFigures: Sendable {
    typealias Figures = (queue: QueueStats?, disk: DiskSpace?, movedAside: [MovedAsideQueue])

    private let queue: OfflineQueue
    private let stateDirectory: String
    private let maximumAge: Duration
    private let movedAsideMaximumAge: Duration
    private let kept = Mutex<(figures: Figures, readAt: ContinuousClock.Instant, listedAt: ContinuousClock.Instant)?>(nil)

    init(queue: OfflineQueue, stateDirectory: String, maximumAge: Duration = .seconds(5), movedAsideMaximumAge: Duration = .seconds(30)) {
        self.queue = queue
        self.stateDirectory = stateDirectory
        self.maximumAge = maximumAge
        self.movedAsideMaximumAge = movedAsideMaximumAge
    }

    /// The figures read within `maximumAge` (the files moved aside within theirs), or read now.
    func current() async -> Figures {
        let now = ContinuousClock.now
        let last = kept.withLock { $0 }
        if let last, last.readAt.duration(to: now) < maximumAge { return last.figures }
        let listed = last.flatMap { $0.listedAt.duration(to: now) < movedAsideMaximumAge ? $0 : nil }
        let figures: Figures = (
            try? await queue.stats(), DiskSpace(of: stateDirectory),
            listed?.figures.movedAside ?? MovedAsideQueue.find(in: stateDirectory)
        )
        kept.withLock { $0 = (figures, now, listed?.listedAt ?? now) }
        return figures
    }
}
