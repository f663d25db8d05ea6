/// Limits simultaneous connection attempts per adapter (`[bluetooth] max_parallel_connects` and
/// `max_parallel_connects_by_adapter`).
///
/// Controllers handle only a few LE connection attempts at once; beyond that they answer
/// `InProgress` or abort, and a gateway restarting with 20 straps would wedge its own adapter.
package actor ConnectionSlots {
    private let limit: @Sendable (String) -> Int
    private var busy: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// The most slots ever in use at once on each adapter (for status and tests).
    private(set) var peak: [String: Int] = [:]

    /// At most `limit` (at least 1) connection attempts at once on any adapter.
    package init(limit: Int) {
        self.init(plan: AdapterPlan(maxParallelConnects: limit))
    }

    /// At most as many connection attempts at once on each adapter as `plan` allows it.
    package init(plan: AdapterPlan) {
        self.limit = { plan.parallelConnects(on: $0) }
    }

    /// Runs `body` while holding one of `adapter`'s slots.
    func withSlot<T: Sendable>(on adapter: String, _ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire(adapter)
        defer { release(adapter) }
        return try await body()
    }

    private func acquire(_ adapter: String) async {
        if busy[adapter, default: 0] < limit(adapter) {
            busy[adapter, default: 0] += 1
            peak[adapter] = max(peak[adapter, default: 0], busy[adapter, default: 0])
            return
        }
        await withCheckedContinuation { waiting[adapter, default: []].append($0) }
    }

    private func release(_ adapter: String) {
        if var queue = waiting[adapter], !queue.isEmpty {
            queue.removeFirst().resume()
            waiting[adapter] = queue
        } else {
            busy[adapter, default: 1] -= 1
        }
    }

}
