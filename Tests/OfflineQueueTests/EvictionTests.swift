@testable import OfflineQueue
import Testing

/// Bounds evict the oldest pending records, never leased ones, and count every eviction durably.
@Suite("OfflineQueue eviction")
struct EvictionTests {
    @Test("max_records evicts the oldest pending records and counts them per stream, across reopen")
    func maxRecords() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.maxRecords = 4
        var queue = try fixture.open()
        try await queue.append(contentsOf: [
            fixture.record("a0", stream: "a", at: 0), fixture.record("b1", stream: "b", at: 1),
            fixture.record("a2", stream: "a", at: 2), fixture.record("b3", stream: "b", at: 3),
        ])
        let leased = try await queue.lease(max: 1)
        #expect(leased.records.map(\.text) == ["a0"])

        try await queue.append(contentsOf: [fixture.record("a4", stream: "a", at: 4), fixture.record("b5", stream: "b", at: 5)])
        // 6 live records, bound 4: the two oldest *pending* go (b1, a2); the leased a0 stays.
        var stats = try await queue.stats()
        #expect((stats.pending, stats.leased, stats.evicted) == (3, 1, 2))
        #expect(stats.evictedByStream == ["a": 1, "b": 1])
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["b3", "a4", "b5"])
        await queue.close()

        // Reopened: every other record is leased, so the new one is the oldest pending and goes.
        queue = try fixture.open()
        try await queue.append(fixture.record("a6", stream: "a", at: 6))
        stats = try await queue.stats()
        #expect((stats.pending, stats.leased, stats.evicted) == (0, 4, 3))
        #expect(stats.evictedByStream == ["a": 2, "b": 1])
        await queue.close()
    }

    @Test("max_bytes evicts oldest pending records until the payload bytes fit")
    func maxBytes() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.maxBytes = 25
        let queue = try fixture.open()
        try await queue.append(contentsOf: (0 ..< 3).map { fixture.record(String(repeating: "\($0)", count: 10), at: Int64($0)) })
        let left = try await queue.lease(max: 10).records.map(\.text)
        #expect(left == [String(repeating: "1", count: 10), String(repeating: "2", count: 10)])
        #expect(try await queue.stats().evicted == 1)
        await queue.close()
    }

    @Test("max_age evicts pending records captured too long ago, on the next commit")
    func maxAge() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.maxAge = .seconds(3600)
        let queue = try fixture.open()
        try await queue.append(contentsOf: [fixture.record("old", at: 0), fixture.record("new", at: 1800)])
        fixture.clock.advance(by: .seconds(3601))
        try await queue.append(fixture.record("now", at: 3601))
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["new", "now"])
        #expect(try await queue.stats().evictedByStream == ["s1": 1])
        await queue.close()
    }

    @Test("bounds see changes another process made (retry-dead) at the next commit once the look is due")
    func otherProcessChanges() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.maxRecords = 3
        let queue = try fixture.open()
        let ids = try await queue.append(contentsOf: (0 ..< 3).map { fixture.record("r\($0)", at: Int64($0)) })
        try await queue.reject([ids[0], ids[1]], reason: "test")

        let tool = try fixture.open(.attach)
        #expect(try await tool.retryDead() == 2)
        await tool.close()

        fixture.clock.advance(by: fixture.configuration.foreignChangeCheckInterval)
        try await queue.append(fixture.record("r3", at: 3))
        let stats = try await queue.stats()
        #expect((stats.pending, stats.evicted) == (3, 1))
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["r1", "r2", "r3"])
        await queue.close()
    }
}
