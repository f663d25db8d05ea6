import Logging
import ProcessThreads

/// The one owner of a queue file's connection: every change and every read goes through this
/// actor. It batches appends into group commits, leases, acknowledges and dead-letters
/// (`QueueStore+Consumption.swift`), reports counts, and keeps the in-memory totals and id
/// allocator in step with the file.
///
/// Writes run synchronously on the actor (SQLite's blocking calls), so no other actor method
/// can interleave with a half-done commit. The actor runs on the storage thread
/// (`BlockingWorkExecutor.storage`), so a commit's `fsync` on a slow card blocks that thread
/// only: callers await it, and the rest of the process goes on.
actor QueueStore {
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        BlockingWorkExecutor.storage.asUnownedSerialExecutor()
    }

    private struct Waiting {
        let records: [NewRecord]
        let continuation: CheckedContinuation<[Int64], any Error>
    }

    let connection: SQLiteConnection
    let path: String
    let configuration: QueueConfiguration
    let eviction: EvictionPolicy
    /// Live records in SQLite (the journal's are in `residents`).
    var totals: LiveTotals?
    /// When a journal commit last looked for another process's changes (queue clock).
    var foreignChangeCheckedAt: Int64?
    var allocator: IDAllocator?
    var streams = StreamKeys()
    /// The owner's ingest journal, where commits go first (nil: straight to SQLite).
    let journal: IngestJournal?
    /// The records only the journal holds.
    var residents = IngestResidents()
    /// Whether another process owns the file (and its journal, read for counts and listings).
    let attached: Bool
    private var waiting: [Waiting] = []
    private var waitingCount = 0
    /// The generation of the commit timer set, nil when none is: a timer of an older one (its
    /// commit came first) finds it changed and does nothing.
    private var timer: Int?
    private var timerGeneration = 0
    private var storageFault: QueueError?
    private var evictedInEpisode: Int?
    private var slowSince: ContinuousClock.Instant?
    private var closed = false

    /// The store of an open file; the owner's first moves what its journal holds into SQLite.
    init(connection: sending SQLiteConnection, path: String, configuration: QueueConfiguration, access: QueueAccess) throws {
        self.connection = connection
        self.path = path
        self.configuration = configuration
        self.attached = access == .attach
        self.journal =
            access == .owner
            ? try IngestReplay.open(queuePath: path, db: connection, bytes: configuration.ingestBytes, logger: configuration.logger)
            : nil
        self.eviction = EvictionPolicy(
            maxRecords: configuration.maxRecords, maxBytes: configuration.maxBytes,
            maxAgeNanoseconds: Self.nanoseconds(configuration.maxAge))
    }

    /// Queues `records` for the next group commit (`now`: commits at once, with whatever else
    /// waits) and returns their ids once it has committed.
    func append(_ records: [NewRecord], now: Bool = false) async throws -> [Int64] {
        guard !closed else { throw QueueError(.closed, "the queue \(path) is closed") }
        guard !records.isEmpty else { return [] }
        if let storageFault, waitingCount + records.count > configuration.maxUnflushedRecords {
            throw QueueError(
                .unflushedLimit,
                "\(records.count) record(s) refused: \(waitingCount) are already waiting in memory for the disk (limit \(configuration.maxUnflushedRecords)); cause: \(storageFault.message)"
            )
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.append(Waiting(records: records, continuation: continuation))
            waitingCount += records.count
            if (now || waitingCount >= configuration.commitMax) && storageFault == nil {
                commitWaiting()
            } else {
                scheduleCommit()
            }
        }
    }

    /// Commits whatever waits now; throws the storage fault if the records could not be written.
    func flush() throws(QueueError) {
        commitWaiting()
        if let storageFault, waitingCount > 0 { throw storageFault }
    }

    /// Flushes, retires the journal into SQLite (so a stopped gateway's queue is one file),
    /// then refuses further appends; records that still cannot be written fail.
    func close() {
        commitWaiting()
        if let journal, !closed {
            do {
                try retire(count: journal.live.count)
            } catch {
                configuration.logger.warning(
                    "could not retire the ingest journal at close; the next start moves its records into the queue file",
                    metadata: ["error": "\(QueueError.writing(error, path: path))"])
            }
        }
        closed = true
        timer = nil
        let error = storageFault ?? QueueError(.closed, "the queue \(path) was closed")
        for entry in waiting { entry.continuation.resume(throwing: error) }
        waiting = []
        waitingCount = 0
        connection.close()
    }

    /// Runs `body` on the connection outside any write transaction (a read of its own).
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        guard !closed else { throw QueueError(.closed, "the queue \(path) is closed") }
        let db = connection
        return try db.transaction(.deferred) { try body(db) }
    }

    /// Runs `body` in an immediate transaction with up-to-date totals and allocator, keeping
    /// their changes only if the transaction commits.
    func transaction<T>(_ body: (SQLiteConnection, inout LiveTotals, inout IDAllocator) throws -> T) throws -> T {
        guard !closed else { throw QueueError(.closed, "the queue \(path) is closed") }
        let (result, newTotals, newAllocator) = try connection.transaction(.immediate) {
            let db = connection
            var currentTotals = try totals ?? LiveTotals.load(db)
            let foreignChange = try currentTotals.refreshIfChanged(db)
            // After another process wrote, restart from its reservation so ids stay unique.
            var currentAllocator = try (foreignChange ? nil : allocator) ?? IDAllocator.load(db)
            let result = try body(db, &currentTotals, &currentAllocator)
            return (result, currentTotals, currentAllocator)
        }
        totals = newTotals
        allocator = newAllocator
        return result
    }

    /// Counts and sizes now, all read in one transaction on the store's connection, so the live
    /// totals (kept in memory, recounted only after another process changed the file) and the
    /// lease counts describe the same moment without counting the whole backlog.
    func stats(now: Int64) throws -> QueueStats {
        guard !closed else { throw QueueError(.closed, "the queue \(path) is closed") }
        let (stats, live, foreignChange) = try connection.transaction(.deferred) {
            var live = try totals ?? LiveTotals.load(connection)
            let foreignChange = try live.refreshIfChanged(connection)
            return (try QueueReport.stats(connection, now: now, live: live), live, foreignChange)
        }
        totals = live
        // The allocator must re-read the reservation another process may have moved.
        if foreignChange { allocator = nil }
        var result = stats
        (result.unflushed, result.storageFault) = (waitingCount, storageFault)
        let (held, leased, front) = try journalCounts(now: now)
        result.pending += held - leased
        result.leased += leased
        if let front { result.oldestPendingAgeNanoseconds = max(result.oldestPendingAgeNanoseconds ?? 0, max(0, now - front)) }
        return result
    }

    /// The journal's live records, those leased, and the capture time of its first pending
    /// one: the owner's from memory, another process's read from the journal.
    private func journalCounts(now: Int64) throws -> (Int, Int, Int64?) {
        if attached {
            let records = try read { try IngestReplay.pending(queuePath: path, db: $0) }
            return (records.count, 0, records.first?.captureTime)
        }
        let (leased, front) = residents.leaseCounts(now: now)
        return (residents.count, leased, front)
    }

    /// Live records with ids above `id`, up to `limit`, in id order: SQLite's and the journal's.
    func liveRecords(after id: Int64, limit: Int) throws -> [QueuedRecord] {
        let stored = try read { try QueueReport.records($0, after: id, limit: limit) }
        let held =
            attached
            ? try read { db in try IngestReplay.pending(queuePath: path, db: db).filter { $0.id > id } }
            : residents.records(after: id, limit: limit)
        let storedIDs = Set(stored.map(\.id))
        return (stored + held.filter { !storedIDs.contains($0.id) }).sorted { $0.id < $1.id }.prefix(limit).map { $0 }
    }

    /// Writes every waiting record in one transaction, enforcing the bounds, then resumes the
    /// callers. On a full disk the records stay waiting and a retry is scheduled.
    func commitWaiting() {
        timer = nil
        guard !waiting.isEmpty || (journal != nil && residents.hasGone) else { return }
        let batch = waiting
        let count = waitingCount
        let now = configuration.clock.nanosecondsSince1970()
        let started = ContinuousClock.now
        do {
            let ids: [[Int64]]
            let evicted: [String: Int]
            if let journal, let committed = try commitToJournal(journal, batch.map(\.records), now: now) {
                (ids, evicted) = committed
            } else {
                let streamIDs: [String: Int64]
                (ids, evicted, streamIDs) = try transaction { db, totals, allocator in
                    let streamIDs = try streams.ids(for: Set(batch.lazy.flatMap(\.records).map(\.stream)), in: db)
                    let ids = try Self.insert(batch.map(\.records), streamIDs: streamIDs, allocator: &allocator, totals: &totals, in: db)
                    return (ids, try eviction.enforce(db, now: now, totals: &totals), streamIDs)
                }
                streams.remember(streamIDs)
            }
            waiting = []
            waitingCount = 0
            noteRecovery()
            noteDuration(started.duration(to: .now))
            noteEvictions(evicted)
            for (entry, entryIDs) in zip(batch, ids) {
                entry.continuation.resume(returning: entryIDs)
            }
        } catch {
            let failure = QueueError.writing(error, path: path)
            if failure.isStorageFault {
                noteFault(failure)
                scheduleCommit()
            } else {
                configuration.logger.error("group commit failed", metadata: ["error": "\(failure)", "records": "\(count)"])
                waiting = []
                waitingCount = 0
                for entry in batch { entry.continuation.resume(throwing: failure) }
            }
        }
    }

    /// Inserts the callers' records with ids in capture order (ties keep append order), so
    /// that id order, which leases follow, is capture order within each commit. Returns each
    /// caller's ids in the order it gave its records.
    private static func insert(
        _ batches: [[NewRecord]], streamIDs: [String: Int64],
        allocator: inout IDAllocator, totals: inout LiveTotals, in db: SQLiteConnection
    ) throws -> [[Int64]] {
        let positions = batches.indices.flatMap { entry in batches[entry].indices.map { (entry, $0) } }
        let ordered = positions.enumerated().sorted { lhs, rhs in
            let (left, right) = (batches[lhs.element.0][lhs.element.1], batches[rhs.element.0][rhs.element.1])
            return (left.captureTime, lhs.offset) < (right.captureTime, rhs.offset)
        }
        var ids = batches.map { [Int64](repeating: 0, count: $0.count) }
        var id = try allocator.allocate(positions.count, in: db)
        var bytes: Int64 = 0
        for (_, (entry, index)) in ordered {
            let record = batches[entry][index]
            try db.execute(
                "INSERT INTO records (id, stream, capture_time, version, payload) VALUES (?, ?, ?, ?, ?)",
                [
                    .integer(id), streamIDs[record.stream].map(SQLiteValue.integer) ?? .null, .integer(record.captureTime),
                    .integer(Int64(record.version)), .blob(Array(record.payload)),
                ])
            ids[entry][index] = id
            id += 1
            bytes += Int64(record.payload.count)
        }
        totals.add(count: positions.count, bytes: bytes)
        return ids
    }

    /// Schedules a commit (for ids gone from the journal to be written down) if none is due,
    /// on the storage thread's own timers: a commit wakes that thread alone.
    func scheduleCommit() {
        guard timer == nil else { return }
        timerGeneration += 1
        let generation = timerGeneration
        timer = generation
        let delay = storageFault == nil ? configuration.commitInterval : configuration.storageRetryInterval
        BlockingWorkExecutor.storage.after(delay) { [weak self] in
            self?.assumeIsolated { $0.timerFired(generation: generation) }
        }
    }

    private func timerFired(generation: Int) {
        guard timer == generation else { return }
        timer = nil
        commitWaiting()
    }

    /// The storage fault of the episode under way, if any.
    var currentFault: QueueError? { storageFault }

    /// Logs the start of a full-or-failing-disk episode once (and a change of its kind).
    private func noteFault(_ fault: QueueError) {
        if storageFault?.code != fault.code {
            configuration.logger.error(
                fault.code == .storageFull
                    ? "queue cannot commit: storage full; keeping records in memory and retrying"
                    : "queue cannot commit: the file system refuses writes; keeping records in memory and retrying",
                metadata: [
                    "error": "\(fault)", "unflushed": "\(waitingCount)", "limit": "\(configuration.maxUnflushedRecords)",
                ])
            configuration.storageFaultObserver?(fault)
        }
        storageFault = fault
    }

    /// Logs the end of a storage fault episode once.
    private func noteRecovery() {
        guard storageFault != nil else { return }
        storageFault = nil
        configuration.logger.notice("queue storage writable again; records held in memory are committed")
        configuration.storageFaultObserver?(nil)
    }

    /// Logs a slow-storage episode once when it starts and once when it ends, and tells the
    /// observer each slow commit's duration.
    private func noteDuration(_ duration: Duration) {
        if duration > configuration.slowCommit {
            if slowSince == nil {
                slowSince = .now
                configuration.logger.warning(
                    "queue commits are slow: the disk stalls; samples wait in memory and nothing is lost",
                    metadata: ["commit": "\(duration)", "path": "\(path)"])
            }
            configuration.slowCommitObserver?(duration)
        } else if let since = slowSince {
            slowSince = nil
            configuration.logger.notice("queue commits are fast again", metadata: ["slow_for": "\(since.duration(to: .now))"])
            configuration.slowCommitObserver?(nil)
        }
    }

    /// Logs an eviction episode once when it starts and once when it ends.
    private func noteEvictions(_ evicted: [String: Int]) {
        let total = evicted.values.reduce(0, +)
        if total > 0 {
            if evictedInEpisode == nil {
                configuration.logger.warning(
                    "queue over its bounds: evicting the oldest pending records",
                    metadata: [
                        "max_records": "\(configuration.maxRecords)", "max_bytes": "\(configuration.maxBytes)",
                        "max_age": "\(configuration.maxAge)", "evicted_by_stream": "\(evicted)",
                    ])
            }
            evictedInEpisode = (evictedInEpisode ?? 0) + total
        } else if let count = evictedInEpisode {
            configuration.logger.notice("queue back within its bounds", metadata: ["evicted_in_episode": "\(count)"])
            evictedInEpisode = nil
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? .max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
