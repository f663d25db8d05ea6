import Foundation
import GatewayTestSupport
@testable import OfflineQueue
import Testing

/// The main path: append with group commit, lease in capture order, ack.
@Suite("OfflineQueue append, lease, ack")
struct AppendLeaseAckTests {
    @Test("leases hand records out in capture order, not append order, and ack deletes them")
    func captureOrder() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let queue = try fixture.open()
        try await queue.append(contentsOf: [
            fixture.record("c", at: 30), fixture.record("a", at: 10), fixture.record("b", stream: "s2", at: 20),
        ])
        let lease = try await queue.lease(max: 2)
        #expect(lease.records.map(\.text) == ["a", "b"])
        #expect(lease.records.map(\.stream) == ["s1", "s2"])
        #expect(try await queue.ack(lease.ids) == 2)
        #expect(try await queue.ack(lease.ids) == 0)
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["c"])
        let stats = try await queue.stats()
        #expect((stats.pending, stats.leased) == (0, 1))
        await queue.close()
    }

    @Test("a record accepted after newer ones is leased after them: the queue keeps acceptance order across commits")
    func lateRecordKeepsAcceptanceOrder() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let queue = try fixture.open()
        try await queue.append(contentsOf: [fixture.record("b", at: 20), fixture.record("c", at: 30)])
        let late = try await queue.append(fixture.record("a", at: 10))
        fixture.clock.advance(by: .seconds(100))
        // The age reported is that of the record at the front of the queue, the next to go.
        #expect(try await queue.stats().oldestPendingAgeNanoseconds == 80_000_000_000)
        let lease = try await queue.lease(max: 10)
        #expect(lease.records.map(\.text) == ["b", "c", "a"])
        #expect(lease.ids.last == late)
        #expect(try await queue.stats().oldestPendingAgeNanoseconds == nil)
        await queue.close()
    }

    @Test("concurrent appends share group commits and each caller gets its own ids")
    func groupCommit() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.commitInterval = .seconds(3600)
        fixture.configuration.commitMax = 8
        let queue = try fixture.open()
        let records = (0 ..< 4).map { [fixture.record("\($0)a"), fixture.record("\($0)b")] }
        // With an hour-long interval only commit_max can commit these: 4 callers × 2 = 8.
        let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for batch in records {
                group.addTask { try await queue.append(contentsOf: batch) }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 8)
        #expect(try await queue.stats().pending == 8)
        await queue.close()
    }

    @Test("a lone append is accepted by the commit interval")
    func commitInterval() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.commitInterval = .milliseconds(20)
        fixture.configuration.commitMax = 1000
        let queue = try fixture.open()
        let id = try await queue.append(fixture.record("alone"))
        #expect(try await queue.records(after: 0, limit: 10).map(\.id) == [id])
        await queue.close()
    }

    @Test("ids are never reused, even after everything was acked and the queue reopened")
    func idsNeverReused() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        var queue = try fixture.open()
        let first = try await queue.append(contentsOf: [fixture.record("1"), fixture.record("2")])
        try await queue.ack(first)
        await queue.close()
        queue = try fixture.open()
        let second = try await queue.append(fixture.record("3"))
        #expect(second > first.max()!)
        await queue.close()
    }

    @Test("two writers on one file (say a tool next to the daemon) never hand out the same id")
    func idsUniqueAcrossWriters() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let first = try fixture.open()
        let second = try fixture.open(.attach)
        var ids = try await first.append(contentsOf: [fixture.record("1a"), fixture.record("1b")])
        ids += try await second.append(contentsOf: [fixture.record("2a"), fixture.record("2b")])
        // Enough to run past the first writer's reserved block into the second one's.
        let many = (0 ... Int(IDAllocator.blockSize)).map { fixture.record("1-\($0)") }
        ids += try await first.append(contentsOf: many)
        ids += try await second.append(contentsOf: [fixture.record("2c")])
        #expect(Set(ids).count == many.count + 5)
        #expect(try await first.stats().pending == many.count + 5)
        await second.close()
        await first.close()
    }

    @Test("records appended and flushed survive closing and reopening")
    func survivesReopen() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.commitInterval = .seconds(3600)
        let queue = try fixture.open()
        let record = fixture.record("kept")
        let pending = Task { try await queue.append(record) }
        try await waitUntil { try await queue.stats().unflushed == 1 }
        try await queue.flush()
        _ = try await pending.value
        await queue.close()
        let reopened = try fixture.open()
        #expect(try await reopened.records(after: 0, limit: 10).map(\.text) == ["kept"])
        await reopened.close()
    }
}
