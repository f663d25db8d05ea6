import ProcessThreads
import ServiceLifecycle
import Synchronization

/// "Something changed": raised from any thread, awaited by one task. The daemon's services wait
/// on these instead of polling, so an idle daemon does not wake: the intake raises one when a
/// commit adds samples (the uploader wakes), the counters when a figure moves (the status report
/// is rewritten), the state-directory watch when a binding changes (the fleet reloads).
///
/// Raising is cheap (a lock and a flag) and coalesces: any number of raises between two waits
/// end one wait. A wait also ends, returning false, at its limit, when its task is cancelled and
/// when its service group starts shutting down, all without a task of its own: a service's pause
/// costs a continuation and, with a limit, one timer of the process loop (the task groups this
/// replaced were a sixth of the loop's time while straps streamed).
package final class ChangeSignal: Sendable {
    private struct Waiter {
        let wait: UInt64
        let continuation: CheckedContinuation<Bool, Never>
        let timer: ProcessTimer?
    }

    private struct State {
        var raised = false
        var waiter: Waiter?
        /// The latest wait's number, so that the timer or shutdown of an earlier one is ignored.
        var waits: UInt64 = 0
        /// A wait ended (its limit, cancellation, shutdown) before it had parked.
        var endedEarly: UInt64?
    }

    private let state = Mutex(State())

    /// A signal with no change raised yet.
    package init() {}

    /// Marks a change, waking the waiter if there is one.
    package func raise() {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter else {
                state.raised = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: true)
    }

    /// Whether a task is parked in `wait()`: lets a test raise only once the waiter sleeps, so
    /// that it proves the wake-up rather than the pending flag.
    var hasWaiter: Bool {
        state.withLock { $0.waiter != nil }
    }

    /// How many waits have begun: lets a test prove that a service slept on a timer instead.
    var waitsBegun: UInt64 {
        state.withLock { $0.waits }
    }

    /// Takes note of every change raised so far without waiting, so that the next wait ends only
    /// for a later one: for a waiter about to read state that already includes them. True if a
    /// change was pending.
    @discardableResult
    package func acknowledge() -> Bool {
        state.withLock { state in
            defer { state.raised = false }
            return state.raised
        }
    }

    /// Returns true once a change was raised since the previous wait (at once if one was); false
    /// after `limit` (if given), or as soon as the task is cancelled or its service group starts
    /// shutting down. One waiter at a time.
    @discardableResult
    package func wait(upTo limit: Duration? = nil) async -> Bool {
        let wait = state.withLock { state in
            state.waits &+= 1
            return state.waits
        }
        return await withTaskCancellationOrGracefulShutdownHandler {
            await withCheckedContinuation { continuation in
                let timer = limit.map { limit in ProcessExecutor.after(limit) { [self] in end(wait) } }
                let now = state.withLock { state -> Bool? in
                    if state.raised {
                        state.raised = false
                        return true
                    }
                    if state.endedEarly == wait { return false }
                    state.waiter = Waiter(wait: wait, continuation: continuation, timer: timer)
                    return nil
                }
                if let now {
                    timer?.cancel()
                    continuation.resume(returning: now)
                }
            }
        } onCancelOrGracefulShutdown: { [self] in
            end(wait)
        }
    }

    /// Ends wait number `wait` with false, or marks it ended if it has not parked yet.
    private func end(_ wait: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter, waiter.wait == wait else {
                if state.waits == wait { state.endedEarly = wait }
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: false)
    }
}
