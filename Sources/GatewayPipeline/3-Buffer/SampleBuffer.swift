import GATTHeartRate
import ProcessThreads
import Synchronization

/// Where samples wait for their commit without waiting for the disk: supervisors drop them here,
/// and the intake takes them at each commit, so a slow group commit never stalls a strap's
/// notification stream.
///
/// Samples may also wait in the kernel: a *source* (an `AcquireNotify` socket set) is gathered
/// by the intake right before each commit, on its own wake, instead of waking a thread per
/// notification (`addSource`).
///
/// Bounded: past `capacity` (the disk has been failing for a long time) new samples are refused
/// and counted instead of growing memory until the kernel kills the daemon.
package final class SampleBuffer: Sendable {
    /// A source's gather: it hands its values on through `add` and says when it wants the next.
    package typealias Gather = @Sendable () -> Duration

    private struct State {
        var samples: [HeartRateSample] = []
        var waiter: CheckedContinuation<Void, Never>?
        var fullWaiter: CheckedContinuation<Bool, Never>?
        /// The intake's pause, its generation (a timer of an older pause finds it changed) and
        /// the count of samples that ends it early.
        var pause: (generation: UInt64, endsAt: Int, continuation: CheckedContinuation<Void, Never>)?
        var pauses: UInt64 = 0
        var sources: [UInt64: Gather] = [:]
        /// The sources whose values are coming: while any has, the intake gathers on its cadence.
        var active: Set<UInt64> = []
        var nextSource: UInt64 = 0
        var closed = false
        var refused = 0

        /// Whether the intake has work: true for a sample or an active source (while open),
        /// false once closed and empty, nil while it must wait.
        var work: Bool? {
            if !samples.isEmpty || (!active.isEmpty && !closed) { return true }
            return closed ? false : nil
        }
    }

    let capacity: Int
    private let state = Mutex(State())

    /// An empty buffer holding at most `capacity` samples (`[queue] max_in_memory`).
    package init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Adds a sample; false when the buffer is full or closed (the sample is not accepted).
    @discardableResult
    func add(_ sample: HeartRateSample) -> Bool {
        let (added, waiter, fullWaiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?, CheckedContinuation<Bool, Never>?) in
            guard !state.closed, state.samples.count < capacity else {
                state.refused += 1
                defer { state.fullWaiter = nil }
                return (false, nil, state.closed ? nil : state.fullWaiter)
            }
            state.samples.append(sample)
            if let pause = state.pause, state.samples.count >= pause.endsAt {
                state.pause = nil
                return (true, pause.continuation, nil)
            }
            defer { state.waiter = nil }
            return (true, state.waiter, nil)
        }
        waiter?.resume()
        fullWaiter?.resume(returning: true)
        return added
    }

    /// Samples refused because the buffer was full or closed.
    var refused: Int { state.withLock { $0.refused } }

    /// Samples waiting to be taken.
    var count: Int { state.withLock { $0.samples.count } }

    /// Whether `close()` was called.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Registers `gather`, which the intake calls before each commit while the source says its
    /// values are coming (`source(_:active:)`), until `removeSource`; returns its key.
    package func addSource(_ gather: @escaping Gather) -> UInt64 {
        state.withLock { state in
            defer { state.nextSource += 1 }
            state.sources[state.nextSource] = gather
            return state.nextSource
        }
    }

    /// Whether the source `key` has values coming (false once it has gone quiet); true wakes
    /// the intake.
    package func source(_ key: UInt64, active: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.sources[key] != nil else { return nil }
            if active { state.active.insert(key) } else { state.active.remove(key) }
            defer { if active { state.waiter = nil } }
            return active ? state.waiter : nil
        }
        waiter?.resume()
    }

    /// Stops gathering the source `key`.
    package func removeSource(_ key: UInt64) {
        state.withLock { state in
            state.sources[key] = nil
            state.active.remove(key)
        }
    }

    /// Gathers every active source (outside the lock: their values come back through `add`);
    /// returns when the soonest wants the next gather, nil without one.
    func gather() -> Duration? {
        let sources = state.withLock { state in state.active.compactMap { state.sources[$0] } }
        return sources.map { $0() }.min()
    }

    /// Waits until there is something to commit or gather: a sample, or a source. False once
    /// the buffer is closed and empty.
    func waitForWork() async -> Bool {
        while true {
            if let work = state.withLock({ $0.work }) { return work }
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.work == nil else { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// Waits `duration` on `executor`'s timers, or until the buffer is closed or holds
    /// `endsAt` samples.
    func pause(for duration: Duration, on executor: BlockingWorkExecutor, endsAt: Int) async {
        await withCheckedContinuation { continuation in
            let generation = state.withLock { state -> UInt64? in
                guard !state.closed, state.samples.count < endsAt else { return nil }
                state.pauses += 1
                state.pause = (state.pauses, endsAt, continuation)
                return state.pauses
            }
            guard let generation else { return continuation.resume() }
            executor.after(duration) { [self] in
                let due = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let pause = state.pause, pause.generation == generation else { return nil }
                    state.pause = nil
                    return pause.continuation
                }
                due?.resume()
            }
        }
    }

    /// Takes every sample waiting, without waiting.
    func takeAll() -> [HeartRateSample] {
        state.withLock { state in
            defer { state.samples.removeAll(keepingCapacity: true) }
            return state.samples
        }
    }

    /// Waits until a sample is refused because the buffer is full (true) or until it is closed
    /// (false): the intake then judges whether the disk behind it has failed.
    func waitUntilFull() async -> Bool {
        await withCheckedContinuation { continuation in
            let closed = state.withLock { state -> Bool in
                if !state.closed { state.fullWaiter = continuation }
                return state.closed
            }
            if closed { continuation.resume(returning: false) }
        }
    }

    /// Refuses new samples and ends the intake's pause: it takes what is left, then stops.
    func close() {
        let (waiter, fullWaiter, pause) = state.withLock { state in
            state.closed = true
            defer { (state.waiter, state.fullWaiter, state.pause) = (nil, nil, nil) }
            return (state.waiter, state.fullWaiter, state.pause?.continuation)
        }
        waiter?.resume()
        fullWaiter?.resume(returning: false)
        pause?.resume()
    }
}
