import HeapModule
import Synchronization

/// One task asleep on the loop executor's timers (`LoopExecutor.sleep(for:)`): the continuation
/// to resume, and whether the timer or a cancellation got to it first.
final class LoopTimer: Sendable {
    private enum State {
        /// Made, not yet holding the sleeping task's continuation.
        case armed
        case sleeping(UnsafeContinuation<Void, any Error>)
        /// Resumed, or cancelled before it could sleep.
        case finished
    }

    private let state = Mutex(State.armed)

    /// Whether the timer no longer needs to fire: its sleep was cancelled (or already ended), so
    /// the loop can drop it instead of waking for it.
    var isFinished: Bool {
        state.withLock {
            if case .finished = $0 { return true }
            return false
        }
    }

    /// Hands over the sleeping task's continuation, true; or resumes it at once, false, if the
    /// task was cancelled meanwhile (the timer then need not be set).
    func sleep(_ continuation: UnsafeContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            guard case .armed = state else { return true }
            state = .sleeping(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// The deadline passed: the task wakes normally.
    func fire() { finish()?.resume() }

    /// The task was cancelled: it wakes now with `CancellationError`, as `Task.sleep` does.
    func cancel() { finish()?.resume(throwing: CancellationError()) }

    private func finish() -> UnsafeContinuation<Void, any Error>? {
        state.withLock { state in
            defer { state = .finished }
            if case .sleeping(let continuation) = state { return continuation }
            return nil
        }
    }
}

/// The loop executor's timers, earliest deadline first: swift-collections' min-heap, so adding a
/// timer and taking the due ones cost O(log n) whatever the number of sleeping tasks (one per
/// strap's stall deadline, the uploader's next round, the status reporter's gap, timeouts).
struct TimerHeap {
    /// A timer and when it falls due. `order` breaks ties so that timers due at the same instant
    /// fire in the order they were set.
    private struct Entry: Comparable {
        let deadline: UInt64
        let order: UInt64
        let timer: LoopTimer

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) == (rhs.deadline, rhs.order)
        }
    }

    private var entries = Heap<Entry>()
    /// How many timers were ever inserted; also the next timer's `order`.
    private(set) var inserted: UInt64 = 0

    /// The earliest deadline of a timer still needed, in nanoseconds of `CLOCK_MONOTONIC`; nil
    /// when none is. Timers whose sleep was cancelled are dropped on the way, so an idle loop
    /// never wakes for a sleep that already ended.
    mutating func earliestDeadline() -> UInt64? {
        while let first = entries.min {
            guard first.timer.isFinished else { return first.deadline }
            entries.removeMin()
        }
        return nil
    }

    /// How many timers are set (cancelled ones included until they are dropped).
    var count: Int { entries.count }

    /// Adds `timer`, due at `deadline` (nanoseconds of `CLOCK_MONOTONIC`).
    mutating func insert(_ timer: LoopTimer, deadline: UInt64) {
        entries.insert(Entry(deadline: deadline, order: inserted, timer: timer))
        inserted &+= 1
    }

    /// Removes and returns the earliest timer if it is due at `now`.
    mutating func popDue(at now: UInt64) -> LoopTimer? {
        guard let first = entries.min, first.deadline <= now else { return nil }
        return entries.removeMin().timer
    }
}
