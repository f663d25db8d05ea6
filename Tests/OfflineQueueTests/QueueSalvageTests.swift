import Foundation
@testable import OfflineQueue
import Testing

/// Damage moves a queue aside; `QueueSalvage` gets back whatever can still be read from it.
@Suite("OfflineQueue salvage of moved-aside files")
struct QueueSalvageTests {
    /// A queue of `count` records whose file was then damaged by `damage` and moved aside by the
    /// next owner open: the fixture, the fresh queue, and the moved-aside file.
    static func movedAside(
        count: Int, damage: (String, Int) throws -> Void
    ) async throws -> (QueueFixture, OfflineQueue, MovedAsideQueue) {
        let fixture = try QueueFixture()
        let queue = try fixture.open()
        try await queue.append(
            contentsOf: (0 ..< count).map { fixture.record("record \($0) " + String(repeating: "x", count: 100), stream: "s\($0 % 3)", at: Int64($0)) })
        await queue.close()
        try damage(fixture.path, fixture.configuration.pageSize)
        let fresh = try fixture.open()
        #expect(fresh.recovery != nil, "the damage must move the file aside")
        let found = MovedAsideQueue.find(in: fixture.directory.path)
        #expect(found.map(\.path) == fresh.recovery?.movedAsidePaths.prefix(1).map { $0 })
        return (fixture, fresh, try #require(found.first))
    }

    static func overwrite(_ path: String, at offset: Int, with bytes: Data) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    @Test("an overwritten 16-byte header: every record comes back, in order, with its stream and time, and the file is marked imported")
    func damagedHeader() async throws {
        let (fixture, queue, file) = try await Self.movedAside(count: 80) { path, _ in
            try Self.overwrite(path, at: 0, with: Data(repeating: 0, count: 16))
        }
        defer { fixture.directory.remove() }
        #expect(file.originalName == "queue.sqlite")
        #expect(file.movedAt == "20270115T080000Z")

        let report = try await QueueSalvage.salvage(file, into: queue)
        #expect(report.imported == 80)
        #expect(report.headerRepaired)
        #expect(report.damage.isEmpty)
        #expect(report.deadLettersLeft == 0)
        let records = try await queue.lease(max: 100).records
        #expect(records.map(\.text) == (0 ..< 80).map { "record \($0) " + String(repeating: "x", count: 100) })
        #expect(records.map(\.stream) == (0 ..< 80).map { "s\($0 % 3)" })
        #expect(records.map(\.captureTime) == (0 ..< 80).map { 1_800_000_000_000_000_000 + Int64($0) * 1_000_000_000 })
        #expect(MovedAsideQueue.find(in: fixture.directory.path).isEmpty, "an imported file is listed no more")
        #expect(FileManager.default.fileExists(atPath: file.path + ".imported"))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".salvaging"), "the scratch copy is removed")
        await queue.close()
    }

    @Test("damaged pages in the middle: reading resumes past them, so only their records are lost")
    func damagedPagesAreSkipped() async throws {
        let count = 3_000
        let (fixture, queue, file) = try await Self.movedAside(count: count) { path, pageSize in
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            let middle = size / pageSize / 2
            try Self.overwrite(path, at: middle * pageSize, with: Data(repeating: 0xA5, count: 2 * pageSize))
        }
        defer { fixture.directory.remove() }
        let report = try await QueueSalvage.salvage(file, into: queue)
        #expect(!report.damage.isEmpty, "the read met the damage")
        #expect(
            report.imported >= count - 40 && report.imported < count,
            "only the records on the two damaged pages (about 4 each) are lost: \(report.imported) of \(count)")
        let texts = try await queue.lease(max: count).records.map(\.text)
        let expected = Set((0 ..< count).map { "record \($0) " + String(repeating: "x", count: 100) })
        #expect(texts.allSatisfy(expected.contains), "nothing imported is altered")
        #expect(texts.last == "record \(count - 1) " + String(repeating: "x", count: 100), "records after the damage are read")
        await queue.close()
    }

    @Test("a file with nothing readable is reported and left where it is, not marked imported")
    func garbageIsLeftAlone() async throws {
        let (fixture, queue, file) = try await Self.movedAside(count: 5) { path, _ in
            var generator = SystemRandomNumberGenerator()
            try Data((0 ..< 40_000).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        }
        defer { fixture.directory.remove() }
        await #expect { try await QueueSalvage.salvage(file, into: queue) } throws: { ($0 as? QueueError)?.code == .corrupt }
        #expect(MovedAsideQueue.find(in: fixture.directory.path) == [file])
        await queue.close()
    }

    @Test("a queue that cannot be opened (here a directory in its place) is inaccessible, not damaged: nothing is moved aside")
    func unopenableIsNotDamage() throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        try FileManager.default.createDirectory(atPath: fixture.path, withIntermediateDirectories: false)
        for access in [QueueAccess.owner, .attach] {
            let error = #expect(throws: QueueError.self) { try fixture.open(access) }
            #expect(error?.code == .inaccessible)
            #expect(error?.message.contains("nothing was moved aside") == true)
            #expect(error?.message.contains("unable to open database file (SQLITE_CANTOPEN)") == true)
        }
        #expect(MovedAsideQueue.find(in: fixture.directory.path).isEmpty)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)) == ["queue.sqlite"])
    }

    @Test("a new queue file and its WAL are created 0600, whatever the umask, and a fresh one after a move aside too")
    func filesArePrivate() async throws {
        let (fixture, queue, _) = try await Self.movedAside(count: 3) { path, _ in
            try Self.overwrite(path, at: 0, with: Data(repeating: 0, count: 16))
        }
        defer { fixture.directory.remove() }
        try await queue.append(fixture.record("after"))
        for file in [fixture.path, fixture.path + "-wal"] {
            #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber == 0o600, "\(file)")
        }
        await queue.close()
    }
}
