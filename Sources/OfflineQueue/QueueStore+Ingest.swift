/// The store's ingest journal: group commits written to the journal, its oldest commits retired
/// into SQLite, and the journal replayed into SQLite when the owner opens the file.
///
/// Why: on an SD card the bytes a commit writes are what wears it. A commit to the journal is
/// one 4 KiB block and one `fdatasync`; the same commit in SQLite's WAL is page 1, the table's
/// last leaf and its parents, then the same pages again at the checkpoint, and the uploader's
/// lease and acknowledgement commits on top. While the uplink keeps up, a record is delivered
/// long before its commit is retired, and never reaches SQLite (docs/PERFORMANCE.md).
extension QueueStore {
    /// Writes the waiting records as one journal commit (ids, and new stream ids, reserved in
    /// SQLite first when needed) and returns each caller's ids; then keeps the journal within
    /// its bounds. Once the commit is written its records are accepted, whatever follows. Nil
    /// for a commit larger than the whole ring, which goes to SQLite instead.
    func commitToJournal(_ journal: IngestJournal, _ batches: [[NewRecord]], now: Int64) throws -> (ids: [[Int64]], evicted: [String: Int])? {
        let positions = batches.indices.flatMap { entry in batches[entry].indices.map { (entry, $0) } }
        let ordered = positions.enumerated().sorted { lhs, rhs in
            let (left, right) = (batches[lhs.element.0][lhs.element.1], batches[rhs.element.0][rhs.element.1])
            return (left.captureTime, lhs.offset) < (right.captureTime, rhs.offset)
        }.map(\.element)
        let keys = Set(positions.map { batches[$0.0][$0.1].stream })
        let first: Int64
        let streamIDs: [String: Int64]
        if let known = streams.knownIDs(for: keys), var reserved = allocator, reserved.hasReserved(positions.count) {
            first = reserved.allocateReserved(positions.count)
            allocator = reserved
            streamIDs = known
        } else {
            (first, streamIDs) = try transaction { db, _, allocator in
                (try allocator.allocate(positions.count, in: db), try streams.ids(for: keys, in: db))
            }
            streams.remember(streamIDs)
        }
        let gone = residents.takeGone()
        let block = IngestBlock(
            sequence: journal.nextSequence, firstID: first,
            records: ordered.map { entry, index in
                let record = batches[entry][index]
                return IngestBlock.Record(
                    stream: streamIDs[record.stream] ?? 0, captureTime: record.captureTime, version: record.version, payload: Array(record.payload))
            },
            gone: gone)
        let bytes = block.encoded(fileID: journal.fileID)
        guard bytes.count / IngestJournal.blockSize < journal.blockCount - 1 else {
            residents.restoreGone(gone)
            return nil
        }
        do {
            while journal.start(forBlocks: bytes.count / IngestJournal.blockSize) == nil {
                try retire(count: 1)
            }
            try journal.write(bytes, lastID: block.lastID)
        } catch {
            residents.restoreGone(gone)
            throw error
        }
        var ids = batches.map { [Int64](repeating: 0, count: $0.count) }
        var accepted: [QueuedRecord] = []
        accepted.reserveCapacity(ordered.count)
        for (offset, (entry, index)) in ordered.enumerated() {
            let record = batches[entry][index]
            ids[entry][index] = first + Int64(offset)
            accepted.append(
                QueuedRecord(
                    id: first + Int64(offset), payload: record.payload, stream: record.stream, captureTime: record.captureTime, version: record.version))
        }
        residents.add(accepted)
        return (ids, keepJournalWithinBounds(journal, now: now))
    }

    /// After a commit: over the queue's bounds, retires every commit and evicts in SQLite; a
    /// journal half full, or holding more records than it keeps, retires its older half. A
    /// failure here is logged and tried again at the next commit: the records are durable.
    private func keepJournalWithinBounds(_ journal: IngestJournal, now: Int64) -> [String: Int] {
        do {
            // Another process (`queue retry-dead`) may have changed SQLite's records: looked
            // at every `foreignChangeCheckInterval` (a clock set back counts as due).
            var sqlite = try totals ?? LiveTotals.load(connection)
            let interval = Self.nanoseconds(configuration.foreignChangeCheckInterval)
            if foreignChangeCheckedAt.map({ now < $0 || now - $0 >= interval }) ?? true {
                foreignChangeCheckedAt = now
                if try sqlite.refreshIfChanged(connection) { allocator = nil }
            }
            totals = sqlite
            let cutoff = now - Self.nanoseconds(configuration.maxAge)
            if sqlite.count + residents.count > configuration.maxRecords || sqlite.bytes + residents.bytes > configuration.maxBytes
                || (residents.frontCaptureTime ?? .max) < cutoff
            {
                try retire(count: journal.live.count)
            }
            if journal.usedFraction > 0.5 || residents.count > configuration.ingestRetainedRecords {
                var count = max(1, journal.live.count / 2)
                while count < journal.live.count, residents.count(above: journal.live[count - 1].lastID) > configuration.ingestRetainedRecords / 2 {
                    count += 1
                }
                try retire(count: count)
            }
            guard (totals?.count ?? 0) > 0 else { return [:] }
            return try transaction { db, totals, _ in try eviction.enforce(db, now: now, totals: &totals) }
        } catch {
            configuration.logger.warning(
                "could not retire the ingest journal's oldest commits into the queue's SQLite file; trying again at the next commit",
                metadata: ["error": "\(QueueError.writing(error, path: path))"])
            return [:]
        }
    }

    /// Moves the undelivered records of the oldest `count` live commits, with their leases,
    /// into SQLite, and the journal's head past those commits, in one transaction.
    func retire(count: Int) throws {
        guard let journal, count > 0 else { return }
        let retired = journal.live.prefix(count)
        guard let last = retired.last, let lastID = retired.map(\.lastID).max() else { return }
        let moving = residents.peekThrough(lastID)
        let fileID = journal.fileID
        let streamIDs = try transaction { db, totals, _ in
            let streamIDs = try streams.ids(for: Set(moving.map(\.record.stream)), in: db)
            let (count, bytes) = try Self.insert(moving, streamIDs: streamIDs, in: db)
            totals.add(count: count, bytes: bytes)
            try Self.setIngestHead(last.sequence + 1, fileID: fileID, in: db)
            return streamIDs
        }
        streams.remember(streamIDs)
        residents.dropThrough(lastID)
        journal.retire(through: last.sequence)
    }

    /// Inserts records from the journal that SQLite does not hold yet (a replay after a crash
    /// may meet records an interrupted retirement already moved, or dead-lettered), with their
    /// leases; returns how many went in and their payload bytes.
    static func insert(
        _ records: [(record: QueuedRecord, leaseExpiry: Int64?)], streamIDs: [String: Int64], in db: SQLiteConnection
    ) throws -> (count: Int, bytes: Int64) {
        var (count, bytes) = (0, Int64(0))
        for (record, expiry) in records {
            let inserted = try db.rows(
                """
                INSERT OR IGNORE INTO records (id, stream, capture_time, version, payload)
                SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 FROM dead_letters WHERE id = ?1) RETURNING id
                """,
                [
                    .integer(record.id), streamIDs[record.stream].map(SQLiteValue.integer) ?? .null, .integer(record.captureTime),
                    .integer(Int64(record.version)), .blob(Array(record.payload)),
                ])
            guard !inserted.isEmpty else { continue }
            (count, bytes) = (count + 1, bytes + Int64(record.payload.count))
            if let expiry { try db.execute("INSERT OR REPLACE INTO leases (id, expiry) VALUES (?, ?)", [.integer(record.id), .integer(expiry)]) }
        }
        return (count, bytes)
    }

    /// Records this journal's id and the first commit not yet retired.
    static func setIngestHead(_ head: UInt64, fileID: UInt64, in db: SQLiteConnection) throws(SQLiteError) {
        try db.execute(
            "INSERT OR REPLACE INTO ingest (singleton, file_id, head) VALUES (0, ?, ?)",
            [.integer(Int64(bitPattern: fileID)), .integer(Int64(bitPattern: head))])
    }

    /// The journal's id and head as SQLite records them; nil before a journal was first used.
    static func ingestHead(in db: SQLiteConnection) throws(SQLiteError) -> (fileID: UInt64, head: UInt64)? {
        guard let row = try db.row("SELECT file_id, head FROM ingest") else { return nil }
        return (UInt64(bitPattern: try row.int64(0)), UInt64(bitPattern: try row.int64(1)))
    }
}
