@testable import OfflineQueue
import Testing

/// A lease must never strand records: when it lapses they are pending again.
@Suite("OfflineQueue lease expiry")
struct LeaseExpiryTests {
    @Test("leased records are not leased twice until the lease expires, then return in capture order")
    func expiry() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.leaseDuration = .seconds(60)
        let queue = try fixture.open()
        try await queue.append(contentsOf: (0 ..< 5).map { fixture.record("r\($0)", at: Int64($0)) })

        let first = try await queue.lease(max: 3)
        #expect(first.records.map(\.text) == ["r0", "r1", "r2"])
        #expect(first.expiresAt == fixture.clock.nanosecondsSince1970() + 60_000_000_000)
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["r3", "r4"])
        #expect(try await queue.lease(max: 10).records.isEmpty)
        var stats = try await queue.stats()
        #expect((stats.pending, stats.leased) == (0, 5))

        fixture.clock.advance(by: .seconds(59))
        #expect(try await queue.lease(max: 10).records.isEmpty)

        fixture.clock.advance(by: .seconds(1))
        stats = try await queue.stats()
        #expect((stats.pending, stats.leased) == (5, 0))
        let again = try await queue.lease(max: 10)
        #expect(again.records.map(\.text) == ["r0", "r1", "r2", "r3", "r4"])
        #expect(again.ids == first.ids + [again.ids[3], again.ids[4]])
        await queue.close()
    }

    @Test("an expired lease is reclaimed after a restart, as after a consumer crash")
    func expiryAcrossRestart() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        var queue = try fixture.open()
        try await queue.append(fixture.record("x"))
        #expect(try await queue.lease(max: 1).records.count == 1)
        await queue.close()

        queue = try fixture.open()
        #expect(try await queue.lease(max: 1).records.isEmpty)
        fixture.clock.advance(by: fixture.configuration.leaseDuration)
        #expect(try await queue.lease(max: 1).records.map(\.text) == ["x"])
        await queue.close()
    }

    @Test("release returns the given leased records to pending at once, or every lease, and counts only those leased")
    func releaseBeforeExpiry() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        var queue = try fixture.open()
        try await queue.append(contentsOf: (0 ..< 4).map { fixture.record("r\($0)", at: Int64($0)) })
        let lease = try await queue.lease(max: 3)
        #expect(try await queue.release([lease.ids[1], 999]) == 1)
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["r1", "r3"])
        await queue.close()

        queue = try fixture.open()
        #expect(try await queue.release() == 4)
        #expect(try await queue.release() == 0)
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["r0", "r1", "r2", "r3"])
        await queue.close()
    }
}
