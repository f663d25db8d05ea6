import GatewayTestSupport
@testable import OfflineQueue
import Testing

/// A full disk (here: SQLite's `max_page_count`, since no tiny filesystem is available) must not
/// stop the queue, lose accepted records, or damage the file.
@Suite("OfflineQueue disk full")
struct DiskFullTests {
    @Test(
        "SQLITE_FULL: records wait in memory up to a bound, are reported, retried, then committed (a commit larger than the ingest journal goes to SQLite)",
        arguments: [0, 32_768])
    func fullThenFreed(ingestBytes: Int) async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.ingestBytes = ingestBytes
        fixture.configuration.storageRetryInterval = .milliseconds(20)
        fixture.configuration.maxUnflushedRecords = 50
        let queue = try fixture.open()
        let accepted = try await queue.append(contentsOf: (0 ..< 20).map { fixture.record("accepted \($0)", at: Int64($0)) })
        let pages = try #require(Int(try await queue.onStoreConnection("PRAGMA page_count")[0]))
        #expect(try await queue.onStoreConnection("PRAGMA max_page_count = \(pages)") == ["\(pages)"])

        let big = (0 ..< 30).map { fixture.record(String(repeating: "b", count: 3000) + "\($0)", at: 100 + Int64($0)) }
        let waiting = Task { try await queue.append(contentsOf: big) }
        try await waitUntil { try await queue.stats().storageFault != nil }
        var stats = try await queue.stats()
        #expect(stats.storageFault?.code == .storageFull)
        #expect(stats.unflushed == 30)
        #expect(stats.pending == 20)

        let overflow = (0 ..< 21).map { fixture.record("over \($0)") }
        await #expect { try await queue.append(contentsOf: overflow) } throws: {
            ($0 as? QueueError)?.code == .unflushedLimit
        }
        #expect(try await queue.onStoreConnection("PRAGMA quick_check") == ["ok"])
        #expect(try await queue.records(after: 0, limit: 100).map(\.id) == accepted)

        _ = try await queue.onStoreConnection("PRAGMA max_page_count = 1000000")
        let ids = try await waiting.value
        #expect(ids.count == 30)
        stats = try await queue.stats()
        #expect(stats.storageFault == nil)
        #expect((stats.unflushed, stats.pending) == (0, 50))
        #expect(try await queue.onStoreConnection("PRAGMA quick_check") == ["ok"])
        await queue.close()
    }

    @Test("a full ingest journal whose oldest commits cannot move into a full SQLite file: records wait in memory, then commit once space returns")
    func journalFullThenFreed() async throws {
        var fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        fixture.configuration.storageRetryInterval = .milliseconds(20)
        fixture.configuration.ingestBytes = 8 * IngestBlock.alignment
        let queue = try fixture.open()
        // No free pages left from the migrations: any record moved into SQLite needs a new one.
        _ = try await queue.onStoreConnection("VACUUM")
        let pages = try #require(Int(try await queue.onStoreConnection("PRAGMA page_count")[0]))
        #expect(try await queue.onStoreConnection("PRAGMA max_page_count = \(pages)") == ["\(pages)"])
        // Seven ring blocks: seven commits fill the journal, whose oldest cannot move to SQLite.
        for index in 0 ..< 7 {
            try await queue.append(fixture.record(String(repeating: "j", count: 1000) + "\(index)", at: Int64(index)))
        }
        let last = fixture.record("waits", at: 7)
        let waiting = Task { try await queue.append(last) }
        try await waitUntil { try await queue.stats().storageFault != nil }
        var stats = try await queue.stats()
        #expect(stats.storageFault?.code == .storageFull)
        #expect((stats.unflushed, stats.pending) == (1, 7))

        _ = try await queue.onStoreConnection("PRAGMA max_page_count = 1000000")
        _ = try await waiting.value
        stats = try await queue.stats()
        #expect(stats.storageFault == nil)
        #expect((stats.unflushed, stats.pending) == (0, 8))
        #expect(try await queue.lease(max: 10).records.last?.text == "waits")
        await queue.close()
    }
}
