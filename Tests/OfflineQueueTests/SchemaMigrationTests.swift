import Foundation
@testable import OfflineQueue
import Testing

/// A queue written by an earlier build (schema v1: text stream keys, a state column and its
/// index; or v2 as the GRDB-based builds wrote it) is upgraded or used in place when it is
/// opened, without losing or reordering anything; one written by a newer build is refused.
@Suite("OfflineQueue schema migration")
struct SchemaMigrationTests {
    @Test("a v1 file keeps its pending, leased and dead records, ids, streams and id reservation after the v2 upgrade")
    func v1FileUpgrades() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let start = fixture.clock.nanosecondsSince1970()
        let leaseExpiry = start + 60_000_000_000
        let v1 = try SQLiteConnection(path: fixture.path)
        try QueueSchema.migrator.migrate(v1, upTo: "v1")
        try v1.execute(
            """
            INSERT INTO records (id, stream, capture_time, version, state, lease_expiry, payload) VALUES
                (3, 'b', ?1 + 3, 1, 0, NULL, CAST('third' AS BLOB)),
                (1, 'a', ?1 + 1, 1, 1, ?2, CAST('first' AS BLOB)),
                (2, 'a', ?1 + 2, 1, 0, NULL, CAST('second' AS BLOB))
            """, [.integer(start), .integer(leaseExpiry)])
        try v1.execute(
            """
            INSERT INTO dead_letters (id, stream, capture_time, version, reason, rejected_at, payload) VALUES
                (4, 'c', ?1 + 4, 1, 'server said 422', ?1 + 5, CAST('dead' AS BLOB))
            """, [.integer(start)])
        try v1.execute("UPDATE id_allocation SET next_limit = 100")
        v1.close()

        let queue = try fixture.open()
        #expect(try await queue.onStoreConnection("SELECT identifier FROM grdb_migrations ORDER BY identifier") == ["v1", "v2", "v3"])
        var stats = try await queue.stats()
        #expect((stats.pending, stats.leased, stats.dead) == (2, 1, 1))
        let live = try await queue.records(after: 0, limit: 10)
        #expect(live.map(\.id) == [1, 2, 3])
        #expect(live.map(\.stream) == ["a", "a", "b"])
        #expect(live.map(\.text) == ["first", "second", "third"])
        let dead = try await queue.deadLetters()
        #expect(dead.map(\.record.stream) == ["c"])
        #expect(dead.map(\.reason) == ["server said 422"])

        #expect(try await queue.lease(max: 10).records.map(\.id) == [2, 3])
        fixture.clock.advance(by: .seconds(60))
        #expect(try await queue.lease(max: 10).records.map(\.id) == [1])
        #expect(try await queue.append(fixture.record("new", stream: "a")) >= 100)
        #expect(try await queue.retryDead() == 1)
        stats = try await queue.stats()
        #expect((stats.pending, stats.leased, stats.dead) == (2, 3, 0))
        await queue.close()
    }

    @Test("a file the GRDB-based build wrote (Fixtures/grdb-written-v2.sqlite) opens as it is: records, lease, dead letter, evictions and id reservation")
    func grdbWrittenFileOpens() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let written = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/grdb-written-v2.sqlite")
        try FileManager.default.copyItem(atPath: written.path, toPath: fixture.path)
        let queue = try fixture.open()
        #expect(queue.recovery == nil)
        let live = try await queue.records(after: 0, limit: 100)
        #expect(live.map(\.id) == [1, 2, 3, 4, 6, 7, 8, 9, 10])
        #expect(live.map(\.text) == ["0", "1", "2", "3", "5", "9", "6", "7", "8"])
        #expect(Set(live.map(\.stream)) == ["numbered"])
        let stats = try await queue.stats()
        #expect((stats.pending, stats.leased, stats.dead, stats.evicted) == (8, 1, 1, 3))
        #expect(try await queue.deadLetters().map(\.reason) == ["server said 422"])
        #expect(try await queue.lease(max: 100).records.map(\.id) == [1, 3, 4, 6, 7, 8, 9, 10])
        #expect(try await queue.append(fixture.record("new", stream: "numbered")) >= 65_543)
        await queue.close()
    }

    @Test("a file holding a schema this build does not know is refused with queue.open-failed, and left where it is")
    func newerSchemaIsRefused() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        try await fixture.open().close()
        let connection = try SQLiteConnection(path: fixture.path)
        try connection.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
        connection.close()
        let error = #expect(throws: QueueError.self) { try fixture.open() }
        #expect(error?.code == .openFailed)
        #expect(error?.message.contains("has schema v99, written by a newer edge-gateway") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).filter { $0.contains("corrupt") }.isEmpty)
    }
}
