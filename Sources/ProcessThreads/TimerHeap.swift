/// The loop executor's sleeping jobs, earliest deadline first: a binary min-heap, so adding a
/// timer and taking the due ones cost O(log n) whatever the number of sleeping tasks (one per
/// strap's stall deadline, the uploader's next round, the status reporter's gap, timeouts).
struct TimerHeap {
    /// A job and when it falls due. `order` breaks ties so that jobs due at the same instant run
    /// in the order they were scheduled.
    struct Entry {
        let deadline: UInt64
        let order: UInt64
        let job: UnownedJob

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : order < other.order
        }
    }

    private var entries: [Entry] = []
    /// How many jobs were ever inserted; also the next job's `order`.
    private(set) var inserted: UInt64 = 0

    /// The earliest deadline, in nanoseconds of `CLOCK_MONOTONIC`; nil when no job sleeps.
    var earliestDeadline: UInt64? { entries.first?.deadline }

    /// How many jobs sleep.
    var count: Int { entries.count }

    /// Adds `job`, due at `deadline` (nanoseconds of `CLOCK_MONOTONIC`).
    mutating func insert(_ job: UnownedJob, deadline: UInt64) {
        entries.append(Entry(deadline: deadline, order: inserted, job: job))
        inserted &+= 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest job if it is due at `now`.
    mutating func popDue(at now: UInt64) -> UnownedJob? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            siftDown()
        }
        return first.job
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < entries.count, entries[left].precedes(entries[first]) { first = left }
            if right < entries.count, entries[right].precedes(entries[first]) { first = right }
            guard first != parent else { return }
            entries.swapAt(parent, first)
            parent = first
        }
    }
}
