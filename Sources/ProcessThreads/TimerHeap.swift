import HeapModule

/// The loop executor's sleeping jobs, earliest deadline first: swift-collections' min-heap, so
/// adding a timer and taking the due ones cost O(log n) whatever the number of sleeping tasks
/// (one per strap's stall deadline, the uploader's next round, the status reporter's gap,
/// timeouts).
struct TimerHeap {
    /// A job and when it falls due. `order` breaks ties so that jobs due at the same instant run
    /// in the order they were scheduled.
    private struct Entry: Comparable {
        let deadline: UInt64
        let order: UInt64
        let job: UnownedJob

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) == (rhs.deadline, rhs.order)
        }
    }

    private var entries = Heap<Entry>()
    /// How many jobs were ever inserted; also the next job's `order`.
    private(set) var inserted: UInt64 = 0

    /// The earliest deadline, in nanoseconds of `CLOCK_MONOTONIC`; nil when no job sleeps.
    var earliestDeadline: UInt64? { entries.min?.deadline }

    /// How many jobs sleep.
    var count: Int { entries.count }

    /// Adds `job`, due at `deadline` (nanoseconds of `CLOCK_MONOTONIC`).
    mutating func insert(_ job: UnownedJob, deadline: UInt64) {
        entries.insert(Entry(deadline: deadline, order: inserted, job: job))
        inserted &+= 1
    }

    /// Removes and returns the earliest job if it is due at `now`.
    mutating func popDue(at now: UInt64) -> UnownedJob? {
        guard let first = entries.min, first.deadline <= now else { return nil }
        return entries.removeMin().job
    }
}
