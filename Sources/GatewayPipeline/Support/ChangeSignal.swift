import ProcessThreads
import Synchronization

/// "Something changed": raised from any thread, awaited by one task. The daemon's services wait
/// on these instead of polling, so an idle daemon does not wake: the intake raises one when a
/// commit adds samples (the uploader wakes), the counters when a figure moves (the status report
/// is rewritten), the state-directory watch when a binding changes (the fleet reloads).
///
/// Raising is cheap (a lock and a flag) and coalesces: any number of raises between two waits
/// end one wait.
package final class ChangeSignal: Sendable {
    private struct State {
        var raised = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// A signal with no change raised yet.
    package init() {}

    /// Marks a change, waking the waiter if there is one.
    package func raise() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.raised = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Whether a task is parked in `wait()`: lets a test raise only once the waiter sleeps, so
    /// that it proves the wake-up rather than the pending flag.
    var hasWaiter: Bool {
        state.withLock { $0.waiter != nil }
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

    /// Returns once a change was raised since the previous wait (at once if one was), or when
    /// the task is cancelled. One waiter at a time.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.raised || Task.isCancelled {
                        state.raised = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }

    /// Like `wait()`, but gives up after `limit`: true if a change ended the wait.
    func wait(upTo limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait()
                return !Task.isCancelled
            }
            group.addTask {
                try? await ProcessExecutor.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
