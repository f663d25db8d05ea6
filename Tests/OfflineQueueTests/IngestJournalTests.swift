import Foundation
import GatewayTestSupport
import Testing

@testable import OfflineQueue

/// The ingest journal in front of SQLite: a commit is one checksummed block, records delivered
/// in time never reach SQLite, and whatever the journal holds survives a crash and is seen by
/// other processes.
@Suite struct IngestJournalTests {
    private static func sampleBlock(sequence: UInt64 = 7, records: Int = 3) -> IngestBlock {
        IngestBlock(
            sequence: sequence, firstID: 1_000,
            records: (0 ..< records).map {
                IngestBlock.Record(
                    stream: Int64($0 % 2 + 1), captureTime: 1_800_000_000_000_000_000 + Int64($0) * 100_000_000, version: 1,
                    payload: Array(repeating: UInt8($0), count: 69))
            },
            gone: [(first: 900, count: 10), (first: 950, count: 1)])
    }

    @Test func aCommitRoundTripsInWholeBlocks() throws {
        let block = Self.sampleBlock()
        let bytes = block.encoded(fileID: 42)
        #expect(bytes.count == IngestBlock.alignment)
        let decoded = bytes.withUnsafeBytes { IngestBlock.decode($0, at: 0, fileID: 42) }
        #expect(decoded?.block == block)
        #expect(decoded?.span == IngestBlock.alignment)
        let large = Self.sampleBlock(records: 100)
        #expect(large.encoded(fileID: 42).count == 2 * IngestBlock.alignment)
    }

    @Test func aTornOrForeignBlockIsNotRead() throws {
        var bytes = Self.sampleBlock().encoded(fileID: 42)
        #expect(bytes.withUnsafeBytes { IngestBlock.decode($0, at: 0, fileID: 43) } == nil)
        bytes[100] ^= 0x01
        #expect(bytes.withUnsafeBytes { IngestBlock.decode($0, at: 0, fileID: 42) } == nil)
        let truncated = Array(Self.sampleBlock(records: 100).encoded(fileID: 42).prefix(IngestBlock.alignment))
        #expect(truncated.withUnsafeBytes { IngestBlock.decode($0, at: 0, fileID: 42) } == nil)
    }

    @Test func deliveredRecordsNeverReachSQLite() async throws {
        let fixture = try QueueFixture()
        let queue = try fixture.open()
        try await queue.append(contentsOf: (0 ..< 10).map { fixture.record("r\($0)", at: Int64($0)) })
        #expect(try await queue.onStoreConnection("SELECT count(*) FROM records") == ["0"])
        let lease = try await queue.lease(max: 100)
        #expect(lease.records.map(\.text) == (0 ..< 10).map { "r\($0)" })
        #expect(try await queue.ack(lease.ids) == 10)
        #expect(try await queue.stats().pending == 0)
        await queue.close()
        let reopened = try fixture.open()
        #expect(try await reopened.stats().pending == 0)
        #expect(try await reopened.onStoreConnection("SELECT count(*) FROM records") == ["0"])
        await reopened.close()
    }

    @Test func recordsTheJournalHoldsSurviveACrashWithTheirIds() async throws {
        let fixture = try QueueFixture()
        var ids: [Int64] = []
        do {
            let queue = try fixture.open()
            ids = try await queue.append(contentsOf: (0 ..< 5).map { fixture.record("r\($0)", at: Int64($0)) })
            let lease = try await queue.lease(max: 2)
            try await queue.ack(lease.ids)
            // The acknowledgement is written down with the next commit; then the process dies
            // without closing (its connection goes, the journal is not retired).
            try await queue.append(fixture.record("r5", at: 5))
        }
        let reopened = try fixture.open()
        let lease = try await reopened.lease(max: 100)
        #expect(lease.records.map(\.text) == ["r2", "r3", "r4", "r5"])
        #expect(Array(lease.ids.prefix(3)) == Array(ids[2...]))
        #expect(try await reopened.onStoreConnection("SELECT count(*) FROM records") == ["4"])
        await reopened.close()
    }

    @Test func anotherProcessCountsAndListsTheJournalsRecords() async throws {
        let fixture = try QueueFixture()
        let owner = try fixture.open()
        try await owner.append(contentsOf: (0 ..< 3).map { fixture.record("r\($0)", at: Int64($0)) })
        let lease = try await owner.lease(max: 1)
        try await owner.ack(lease.ids)
        try await owner.append(fixture.record("r3", at: 3))
        let tool = try fixture.open(.attach)
        #expect(try await tool.stats().pending == 3)
        #expect(try await tool.records(after: 0, limit: 10).map(\.text) == ["r1", "r2", "r3"])
        await tool.close()
        await owner.close()
    }

    @Test func aFullJournalRetiresItsOldestCommitsIntoSQLiteInOrder() async throws {
        var fixture = try QueueFixture()
        fixture.configuration.ingestBytes = 8 * IngestBlock.alignment
        let queue = try fixture.open()
        for index in 0 ..< 40 {
            try await queue.append(fixture.record("r\(index)", at: Int64(index)))
        }
        let stored = Int(try await queue.onStoreConnection("SELECT count(*) FROM records")[0]) ?? 0
        #expect(stored > 0)
        #expect(try await queue.stats().pending == 40)
        let lease = try await queue.lease(max: 100)
        #expect(lease.records.map(\.text) == (0 ..< 40).map { "r\($0)" })
        try await queue.ack(lease.ids)
        #expect(try await queue.stats().pending == 0)
        await queue.close()
    }

    @Test func aLeaseOnAJournalRecordMovesWithItIntoSQLite() async throws {
        var fixture = try QueueFixture()
        fixture.configuration.ingestBytes = 8 * IngestBlock.alignment
        let queue = try fixture.open()
        try await queue.append(fixture.record("first"))
        let lease = try await queue.lease(max: 1)
        for index in 1 ... 20 { try await queue.append(fixture.record("r\(index)", at: Int64(index))) }
        #expect(try await queue.onStoreConnection("SELECT count(*) FROM leases") == ["1"])
        #expect(try await queue.lease(max: 1).records.map(\.text) == ["r1"])
        #expect(try await queue.ack(lease.ids) == 1)
        await queue.close()
    }

    @Test func aJournalRecordRejectedBecomesADeadLetter() async throws {
        let fixture = try QueueFixture()
        let queue = try fixture.open()
        let ids = try await queue.append(contentsOf: [fixture.record("good"), fixture.record("bad", at: 1)])
        #expect(try await queue.reject([ids[1]], reason: "test") == 1)
        #expect(try await queue.deadLetters().map(\.record.text) == ["bad"])
        #expect(try await queue.stats().pending == 1)
        await queue.close()
        let reopened = try fixture.open()
        #expect(try await reopened.lease(max: 10).records.map(\.text) == ["good"])
        await reopened.close()
    }

    @Test func aQueueWithoutJournalRemovesOneLeftBehindAfterReplayingIt() async throws {
        var fixture = try QueueFixture()
        do {
            let queue = try fixture.open()
            try await queue.append(fixture.record("kept"))
        }
        fixture.configuration.ingestBytes = 0
        let queue = try fixture.open()
        #expect(try await queue.lease(max: 10).records.map(\.text) == ["kept"])
        #expect(!FileManager.default.fileExists(atPath: IngestReplay.journalPath(for: fixture.path)))
        await queue.close()
    }
}
