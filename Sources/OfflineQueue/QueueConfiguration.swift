import Logging

/// Tuning and bounds of one queue. Defaults suit a Raspberry Pi with an SD card buffering a
/// handful of straps at 1 Hz for weeks.
package struct QueueConfiguration: Sendable {
    /// Longest time an appended record waits before its batch is committed (`commit_interval`).
    package var commitInterval: Duration = .seconds(1)
    /// Commit as soon as this many records wait (`commit_max`).
    package var commitMax = 256
    /// Most live (pending + leased) records kept; beyond it the oldest pending are evicted.
    package var maxRecords = 10_000_000
    /// Most live payload bytes kept; beyond it the oldest pending are evicted.
    package var maxBytes: Int64 = 4 << 30
    /// Pending records captured longer ago than this are evicted.
    package var maxAge: Duration = .seconds(90 * 24 * 3600)
    /// How long a lease holds its records before they return to pending.
    package var leaseDuration: Duration = .seconds(120)
    /// While the disk is full or failing, at most this many records wait in memory; further
    /// appends fail.
    package var maxUnflushedRecords = 100_000
    /// How often a commit is retried while the disk is full or failing.
    package var storageRetryInterval: Duration = .seconds(5)
    /// SQLite page size for a newly created file (existing files keep theirs). Every group
    /// commit rewrites page 1, the last table pages, the last index pages and their parents in
    /// the WAL, so small pages mean fewer bytes written per small commit: at 10 records of
    /// 71 bytes per commit, 512-byte pages (SQLite's smallest) write the fewest bytes to
    /// storage per record of the sizes measured (`edge-gateway-bench queue`; README).
    package var pageSize = 512
    /// Size of the ingest journal in front of the SQLite file (`IngestJournal`): each group
    /// commit writes one 4 KiB block there, and records reach SQLite only if the consumer has
    /// not taken and acknowledged them by the time their block is retired. 0: no journal, every
    /// commit goes to SQLite (the held queue, which another process may lease from).
    package var ingestBytes = 4 << 20
    /// Most records the journal keeps to itself (in memory, unacknowledged); past it, its
    /// oldest commits are retired into SQLite, as they are once it is half full.
    package var ingestRetainedRecords = 4_000
    /// How often a journal commit looks whether another process (`queue retry-dead`,
    /// `queue import`) changed the SQLite file behind the store, for its bounds: the look is a
    /// read transaction of its own, which cost a tenth of the storage thread's time when made at
    /// every commit. Every write transaction (a lease, a retirement, an eviction) looks anyway.
    package var foreignChangeCheckInterval: Duration = .seconds(5)
    /// Source of wall-clock time for leases, ages and dead letters.
    package var clock: any QueueClock = SystemQueueClock()
    /// Where the queue reports evictions, recoveries and storage faults.
    package var logger = Logger(label: "edge-gateway.queue")
    /// Told when a storage fault (full or failing disk) starts, with the fault, and when it
    /// ends, with nil: for a daemon's status and metrics.
    package var storageFaultObserver: (@Sendable (QueueError?) -> Void)?
    /// A commit that takes longer than this (a card stalling in its garbage collection) starts
    /// a slow-storage episode, logged once at warning.
    package var slowCommit: Duration = .seconds(2)
    /// Told each slow commit's duration, and nil by the first faster commit after them.
    package var slowCommitObserver: (@Sendable (Duration?) -> Void)?

    /// The defaults.
    package init() {}
}
