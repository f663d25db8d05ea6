import Glibc
import Synchronization

/// "The live figures moved": beaten by every sample on the thread that received it (the D-Bus
/// connection's, or the storage thread's for gathered sockets), heard by each listener at most
/// once per `interval`, on that same thread.
///
/// It lets an open console page get a strap's heart rate as it arrives without a wake of its
/// own: the thread is awake for the notification already, where a timer a second on the main
/// loop cost more than building and sending the event (docs/PERFORMANCE.md, "The console").
/// With no listener a beat is one atomic load, so the console costs nothing while no page is
/// open. Listeners run on the beating thread, outside any lock: they must be short and must
/// never block for long (the console's sends are non-blocking).
package final class LivePulse: Sendable {
    private struct State {
        var listeners: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let listening = Atomic<Int>(0)
    /// `CLOCK_MONOTONIC` nanoseconds of the last beat heard, or `Int64.min`.
    private let lastHeard = Atomic<Int64>(.min)
    private let intervalNanoseconds: Int64

    /// A pulse heard at most once per `interval`.
    package init(interval: Duration = .seconds(1)) {
        let (seconds, attoseconds) = interval.components
        intervalNanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Calls `listener` on the beats heard from now on; returns what stops it (idempotent).
    package func listen(_ listener: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let id = state.withLock { state in
            state.nextID += 1
            state.listeners[state.nextID] = listener
            return state.nextID
        }
        listening.add(1, ordering: .relaxed)
        return { [self] in
            if state.withLock({ $0.listeners.removeValue(forKey: id) }) != nil {
                listening.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// A figure moved: the listeners hear it unless they heard a beat less than `interval` ago.
    package func beat() {
        guard listening.load(ordering: .relaxed) > 0 else { return }
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let now = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        let last = lastHeard.load(ordering: .relaxed)
        guard last == .min || now - last >= intervalNanoseconds,
            lastHeard.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
        else { return }
        for listener in state.withLock({ Array($0.listeners.values) }) { listener() }
    }
}
