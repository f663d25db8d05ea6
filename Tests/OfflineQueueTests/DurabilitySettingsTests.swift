@testable import OfflineQueue
import Testing

/// The settings that make "accepted" mean "on disk" (architecture.md, durability contract).
@Suite("OfflineQueue durability settings")
struct DurabilitySettingsTests {
    @Test("the connection runs WAL with synchronous=FULL (not the NORMAL usual with WAL), as owner and when attached")
    func synchronousFull() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let queue = try fixture.open()
        #expect(try await queue.onStoreConnection("PRAGMA synchronous") == ["2"])
        #expect(try await queue.onStoreConnection("PRAGMA journal_mode") == ["wal"])
        #expect(try await queue.onStoreConnection("PRAGMA page_size") == ["\(fixture.configuration.pageSize)"])
        await queue.close()

        let attached = try fixture.open(.attach)
        #expect(try await attached.onStoreConnection("PRAGMA synchronous") == ["2"])
        await attached.close()
    }

    @Test("the schema is created through the migrator and recorded as applied")
    func migrations() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        let queue = try fixture.open()
        #expect(try await queue.onStoreConnection("SELECT identifier FROM grdb_migrations ORDER BY identifier") == ["v1", "v2", "v3"])
        await queue.close()
    }
}
