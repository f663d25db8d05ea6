import HeapModule

/// The loop executor's timers, earliest deadline first: swift-collections' min-heap, so adding a
/// timer and taking the due ones cost O(log n) whatever the number of sleeping tasks (one per
/// strap's stall deadline, the uploader's next round, the status reporter's gap, timeouts).
struct TimerHeap {
    /// A timer and when it falls due. `order` breaks ties so that timers due at the same instant
    /// fire in the order they were set.
    private struct Entry: Comparable {
        let deadline: UInt64
        let order: UInt64
        let timer: LoopTimer

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) == (rhs.deadline, rhs.order)
        }
    }

    private var entries = Heap<Entry>()
    /// How many timers were ever inserted; also the next timer's `order`.
    private(set) var inserted: UInt64 = 0

    /// The earliest deadline of a timer still needed, in nanoseconds of `CLOCK_MONOTONIC`; nil
    /// when none is. Timers whose sleep was cancelled are dropped on the way, so an idle loop
    /// never wakes for a sleep that already ended.
    mutating func earliestDeadline() -> UInt64? {
        while let first = entries.min {
            guard first.timer.isFinished else { return first.deadline }
            entries.removeMin()
        }
        return nil
    }

    /// How many timers are set (cancelled ones included until they are dropped).
    var count: Int { entries.count }

    /// Adds `timer`, due at `deadline` (nanoseconds of `CLOCK_MONOTONIC`).
    mutating func insert(_ timer: LoopTimer, deadline: UInt64) {
        entries.insert(Entry(deadline: deadline, order: inserted, timer: timer))
        inserted &+= 1
    }

    /// Removes and returns the earliest timer if it is due at `now`.
    mutating func popDue(at now: UInt64) -> LoopTimer? {
        guard let first = entries.min, first.deadline <= now else { return nil }
        return entries.removeMin().timer
    }
}
