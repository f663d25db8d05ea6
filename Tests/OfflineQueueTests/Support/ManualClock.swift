import OfflineQueue
import Synchronization

/// A clock that moves only when a test says so, for lease expiry and `max_age` without sleeps.
final class ManualClock: QueueClock {
    private let now: Mutex<Int64>

    init(_ start: Int64 = 1_800_000_000_000_000_000) {
        now = Mutex(start)
    }

    func nanosecondsSince1970() -> Int64 { now.withLock { $0 } }

    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        now.withLock { $0 += seconds * 1_000_000_000 + attoseconds / 1_000_000_000 }
    }
}
