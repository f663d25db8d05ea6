import GATTHeartRate
import Synchronization

/// Where supervisors drop samples without waiting for the disk: the intake takes them in
/// batches, so a slow group commit never stalls a strap's notification stream.
///
/// Bounded: past `capacity` (the disk has been failing for a long time) new samples are refused
/// and counted instead of growing memory until the kernel kills the daemon.
package final class SampleBuffer: Sendable {
    private struct State {
        var samples: [HeartRateSample] = []
        var waiter: CheckedContinuation<Void, Never>?
        var fullWaiter: CheckedContinuation<Bool, Never>?
        var closed = false
        var refused = 0
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

    /// Waits for samples and takes all of them; nil once closed and empty.
    func takeAll() async -> [HeartRateSample]? {
        while true {
            let taken: [HeartRateSample]? = state.withLock { state in
                if !state.samples.isEmpty {
                    defer { state.samples.removeAll(keepingCapacity: true) }
                    return state.samples
                }
                return state.closed ? [] : nil
            }
            if let taken { return taken.isEmpty ? nil : taken }
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if !state.samples.isEmpty || state.closed { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
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

    /// Refuses new samples; `takeAll` returns what is left, then nil.
    func close() {
        let (waiter, fullWaiter) = state.withLock { state in
            state.closed = true
            defer { (state.waiter, state.fullWaiter) = (nil, nil) }
            return (state.waiter, state.fullWaiter)
        }
        waiter?.resume()
        fullWaiter?.resume(returning: false)
    }
}
