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
