import Foundation
@testable import GatewayStatus
import GatewayTestSupport
import PipelineTestSupport
import Testing

/// The upload history file: appended line by line, compacted atomically, read forgivingly.
@Suite("Operations: upload history")
struct UploadHistoryTests {
    static func lineCount(_ path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
    }

    static func inode(_ path: String) throws -> UInt64 {
        var info = stat()
        try #require(stat(path, &info) == 0)
        return UInt64(info.st_ino)
    }

    @Test("records attempts as one JSON line each and reads them back oldest first, limited to the newest")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let history = UploadHistory(directory: directory.path)
        #expect(history.recent().isEmpty)
        let attempts = (1 ... 5).map { StatusReportFixtures.attempt($0, error: $0 == 3 ? "HTTP 503 from jhe.example.org" : nil) }
        for attempt in attempts { try history.record(attempt) }
        #expect(history.recent() == attempts)
        #expect(history.recent(limit: 2) == Array(attempts.suffix(2)))
        #expect(try Self.lineCount(history.path) == 5)
        #expect(try FileManager.default.attributesOfItem(atPath: history.path)[.posixPermissions] as? NSNumber == 0o600)
    }

    @Test("appends without rewriting the file, and past 400 lines keeps the newest 200 through an atomic replace")
    func compaction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let history = UploadHistory(directory: directory.path)
        try history.record(StatusReportFixtures.attempt(1))
        let firstInode = try Self.inode(history.path)
        for index in 2 ... 400 { try history.record(StatusReportFixtures.attempt(index)) }
        #expect(try Self.lineCount(history.path) == 400)
        #expect(try Self.inode(history.path) == firstInode, "appends must not replace the file")
        try history.record(StatusReportFixtures.attempt(401))
        #expect(try Self.lineCount(history.path) == 200)
        #expect(try Self.inode(history.path) != firstInode, "compaction replaces the file atomically")
        #expect(history.recent().map(\.samples) == Array(202 ... 401))
        #expect(!FileManager.default.fileExists(atPath: history.path + ".tmp-\(getpid())"))
        #expect(
            try FileManager.default.attributesOfItem(atPath: history.path)[.posixPermissions] as? NSNumber == 0o600,
            "the compacted history stays private, like every state file")
    }

    @Test("a daemon started on an existing history counts its lines, and compacts at the same line as the one that wrote them")
    func countsExistingLines() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let earlier = UploadHistory(directory: directory.path)
        for index in 1 ... 399 { try earlier.record(StatusReportFixtures.attempt(index)) }
        let history = UploadHistory(directory: directory.path)
        try history.record(StatusReportFixtures.attempt(400))
        #expect(try Self.lineCount(history.path) == 400)
        try history.record(StatusReportFixtures.attempt(401))
        #expect(try Self.lineCount(history.path) == 200)
        #expect(history.recent().map(\.samples) == Array(202 ... 401))
    }

    @Test("skips garbage lines and a torn last line, and the next record starts on a line of its own")
    func tornAndGarbage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let history = UploadHistory(directory: directory.path)
        try history.record(StatusReportFixtures.attempt(1))
        let handle = try #require(FileHandle(forWritingAtPath: history.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not json at all\n{\"startedAt\":12}\n\u{0}\u{1}\u{2}\n{\"startedAt\":\"2027-01-15T08:00:00Z\",\"durat".utf8))
        try handle.close()
        #expect(history.recent() == [StatusReportFixtures.attempt(1)])
        try history.record(StatusReportFixtures.attempt(2))
        #expect(history.recent() == [StatusReportFixtures.attempt(1), StatusReportFixtures.attempt(2)])
    }

    @Test("random attempts, with and without an error and with durations from microseconds to hours, are written byte for byte as JSONEncoder wrote them")
    func linesMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 34)
        for _ in 0 ..< 300 {
            func count() -> Int { Int.random(in: 0 ... 1000, using: &random) }
            let attempt = UploadAttempt(
                startedAt: Date(timeIntervalSince1970: Double.random(in: -1e9 ... 4e9, using: &random)),
                durationSeconds: [0, 1, 0.25, 1e-6, 12.5].randomElement(using: &random)! * Double.random(in: 0 ... 3600, using: &random),
                samples: count(), delivered: count(), duplicate: count(), rejected: count(), forbidden: count(), skipped: count(),
                retryLater: count(), error: Bool.random(using: &random) ? JSONEncoderReference.randomString(&random) : nil)
            #expect(attempt.jsonBytes == Array(try StatusReportFileTests.reference.encode(attempt)))
        }
    }
}
