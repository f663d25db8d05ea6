#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The records only the ingest journal holds, in memory, in id order, with their leases: what
/// the uploader takes first-hand while the uplink keeps up, so a record delivered within a few
/// minutes of its capture is never written to SQLite at all.
///
/// Leases on these records live here only. A crash forgets them, and every record the journal
/// still holds is pending again at the next start: the server answers 409 for one it already
/// has, which the uploader counts as delivered.
struct IngestResidents {
    private var records: [QueuedRecord] = []
    /// Where in `records` the live ones start; the slots before it are already gone.
    private var start = 0
    private var leases: [Int64: Int64] = [:]
    /// Ids gone from the journal since the last commit wrote them down.
    private var goneSinceCommit: [(first: Int64, count: Int64)] = []
    private var removed: Set<Int64> = []
    private(set) var bytes: Int64 = 0

    /// Live records.
    var count: Int { records.count - start - removed.count }

    /// Adds a commit's records (ids above every record held).
    mutating func add(_ new: [QueuedRecord]) {
        compact()
        records += new
        bytes += new.reduce(0) { $0 + Int64($1.payload.count) }
    }

    /// Up to `limit` records no unexpired lease holds, in id order, as of `now`.
    func unleased(limit: Int, now: Int64) -> [QueuedRecord] {
        var found: [QueuedRecord] = []
        var index = start
        while found.count < limit, index < records.count {
            let record = records[index]
            if !removed.contains(record.id), (leases[record.id] ?? .min) <= now { found.append(record) }
            index += 1
        }
        return found
    }

    /// Leases `ids` until `expiry`.
    mutating func lease(_ ids: some Sequence<Int64>, until expiry: Int64) {
        for id in ids { leases[id] = expiry }
    }

    /// Ends the leases of `ids` (every lease, when nil); returns how many were leased.
    mutating func release(_ ids: [Int64]?, now: Int64) -> Int {
        guard let ids else {
            defer { leases = [:] }
            return leases.values.count { $0 > now }
        }
        return ids.count { leases.removeValue(forKey: $0).map { $0 > now } ?? false }
    }

    /// Removes `ids` (delivered, or moved to the dead letters) and returns the records that
    /// were here; the next commit writes their ids down as gone.
    mutating func remove(_ ids: [Int64]) -> [QueuedRecord] {
        var taken: [QueuedRecord] = []
        for id in ids.sorted() {
            guard let index = position(of: id), !removed.contains(id) else { continue }
            taken.append(records[index])
            removed.insert(id)
            leases[id] = nil
            bytes -= Int64(records[index].payload.count)
            if let last = goneSinceCommit.last, last.first + last.count == id {
                goneSinceCommit[goneSinceCommit.count - 1].count += 1
            } else {
                goneSinceCommit.append((id, 1))
            }
        }
        compact()
        return taken
    }

    /// The records among `ids` held here.
    func peek(_ ids: [Int64]) -> [QueuedRecord] {
        ids.compactMap { id in position(of: id).flatMap { removed.contains(id) ? nil : records[$0] } }
    }

    /// Whether `id` is held here.
    func contains(_ id: Int64) -> Bool {
        position(of: id).map { !removed.contains(records[$0].id) } ?? false
    }

    /// Whether some gone ids wait to be written down.
    var hasGone: Bool { !goneSinceCommit.isEmpty }

    /// The gone ids the next commit must write down; forgets them.
    mutating func takeGone() -> [(first: Int64, count: Int64)] {
        defer { goneSinceCommit = [] }
        return goneSinceCommit
    }

    /// Puts back gone ids a failed commit did not write down.
    mutating func restoreGone(_ gone: [(first: Int64, count: Int64)]) {
        goneSinceCommit = gone + goneSinceCommit
    }

    /// The live records with ids up to `lastID`, each with its lease expiry if it has one: what
    /// retiring the commits that hold them moves into SQLite.
    func peekThrough(_ lastID: Int64) -> [(record: QueuedRecord, leaseExpiry: Int64?)] {
        records[start ..< position(firstAbove: lastID)].filter { !removed.contains($0.id) }.map { ($0, leases[$0.id]) }
    }

    /// Stops holding the records with ids up to `lastID` (now in SQLite).
    mutating func dropThrough(_ lastID: Int64) {
        while start < records.count, records[start].id <= lastID {
            let record = records[start]
            if removed.remove(record.id) == nil {
                leases[record.id] = nil
                bytes -= Int64(record.payload.count)
            }
            start += 1
        }
        compact()
    }

    /// Live records with ids above `id` (counting the gone ones not yet compacted away).
    func count(above id: Int64) -> Int {
        records.count - position(firstAbove: id)
    }

    /// The capture time of the record at the front (the oldest id held).
    var frontCaptureTime: Int64? {
        records[start...].first { !removed.contains($0.id) }?.captureTime
    }

    /// Live records with ids above `id`, up to `limit`, in id order.
    func records(after id: Int64, limit: Int) -> [QueuedRecord] {
        var found: [QueuedRecord] = []
        var index = position(firstAbove: id)
        while found.count < limit, index < records.count {
            if !removed.contains(records[index].id) { found.append(records[index]) }
            index += 1
        }
        return found
    }

    /// Live records under an unexpired lease at `now`, and the capture time of the first
    /// record (in id order) without one: the next to be leased.
    func leaseCounts(now: Int64) -> (leased: Int, frontPendingCapture: Int64?) {
        let leased = leases.values.count { $0 > now }
        return (leased, unleased(limit: 1, now: now).first?.captureTime)
    }

    private func position(of id: Int64) -> Int? {
        let index = position(firstAbove: id - 1)
        return index < records.count && records[index].id == id ? index : nil
    }

    /// The index of the first record whose id is above `id` (binary search; ids ascend).
    private func position(firstAbove id: Int64) -> Int {
        var (low, high) = (start, records.count)
        while low < high {
            let middle = (low + high) / 2
            if records[middle].id <= id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Drops the gone records at the front, and the array's dead prefix once it is large.
    private mutating func compact() {
        while start < records.count, removed.remove(records[start].id) != nil { start += 1 }
        if start > 0, start >= records.count / 2 {
            records.removeFirst(start)
            start = 0
        }
    }
}
