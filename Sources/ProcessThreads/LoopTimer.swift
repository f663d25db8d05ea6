import Synchronization

/// One timer of the loop executor: a task asleep on it (`LoopExecutor.sleep(for:)`) or an action
/// set with `LoopExecutor.after(_:_:)`, and whether its deadline or a cancellation got to it
/// first.
final class LoopTimer: Sendable {
    private enum State {
        /// Made, not yet holding what to call.
        case armed
        /// Waiting for its deadline: what to call, with true when it falls due and false when
        /// it is cancelled first.
        case set(@Sendable (_ fired: Bool) -> Void)
        /// Fired or cancelled.
        case finished
    }

    private let state = Mutex(State.armed)

    /// Whether the timer no longer needs to fire: it was cancelled (or already fired), so the
    /// loop can drop it instead of waking for it.
    var isFinished: Bool {
        state.withLock {
            if case .finished = $0 { return true }
            return false
        }
    }

    /// Hands over what to call, true; or calls it at once with false, and returns false, if the
    /// timer was cancelled meanwhile (it then need not be scheduled).
    func set(_ action: @escaping @Sendable (_ fired: Bool) -> Void) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            guard case .armed = state else { return true }
            state = .set(action)
            return false
        }
        if cancelled { action(false) }
        return !cancelled
    }

    /// The deadline passed.
    func fire() { finish()?(true) }

    /// Cancelled before its deadline: a sleeping task wakes now with `CancellationError`, as
    /// `Task.sleep` does, and an action is dropped.
    func cancel() { finish()?(false) }

    private func finish() -> (@Sendable (Bool) -> Void)? {
        state.withLock { state in
            defer { state = .finished }
            if case .set(let action) = state { return action }
            return nil
        }
    }
}
