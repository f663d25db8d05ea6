@testable import OfflineQueue
import Testing

/// Rejected records are kept with their reason and can be sent again.
@Suite("OfflineQueue dead letters")
struct DeadLetterTests {
    @Test("reject keeps the reason and time; retryDead with a filter moves only matches back, same ids")
    func rejectAndRetry() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let queue = try fixture.open()
        let ids = try await queue.append(contentsOf: (0 ..< 3).map { fixture.record("r\($0)", at: Int64($0)) })
        _ = try await queue.lease(max: 3)
        #expect(try await queue.reject([ids[0]], reason: "HTTP 400: bad patient") == 1)
        #expect(try await queue.reject([ids[1]], reason: "HTTP 422: schema") == 1)

        let dead = try await queue.deadLetters()
        #expect(dead.map(\.record.id) == [ids[0], ids[1]])
        #expect(dead.map(\.reason) == ["HTTP 400: bad patient", "HTTP 422: schema"])
        #expect(dead[0].rejectedAt == fixture.clock.nanosecondsSince1970())
        #expect(dead[0].record.text == "r0")
        var stats = try await queue.stats()
        #expect((stats.pending, stats.leased, stats.dead) == (0, 1, 2))

        #expect(try await queue.retryDead(DeadLetterFilter(reasonContains: "patient")) == 1)
        #expect(try await queue.lease(max: 5).records.map(\.id) == [ids[0]])
        #expect(try await queue.retryDead() == 1)
        stats = try await queue.stats()
        #expect((stats.pending, stats.leased, stats.dead) == (1, 2, 0))
        await queue.close()
    }
}
