import Foundation
@testable import OfflineQueue
import Testing

/// A damaged file must never put the daemon in a crash loop: it is moved aside and replaced.
@Suite("OfflineQueue corrupt file recovery")
struct CorruptFileRecoveryTests {
    @Test("garbage over the file: moved aside with a timestamp, fresh queue works, event reported")
    func garbageFile() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        var queue = try fixture.open()
        try await queue.append(fixture.record("lost"))
        await queue.close()
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0 ..< 40_000).map { _ in UInt8.random(in: 0 ... 255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: fixture.path))

        queue = try fixture.open()
        let recovery = try #require(queue.recovery)
        #expect(recovery.movedAsidePaths == [fixture.path + ".corrupt-20270115T080000Z"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: recovery.movedAsidePaths[0])) == garbage)
        #expect(try await queue.stats().pending == 0)
        try await queue.append(fixture.record("fresh"))
        #expect(try await queue.lease(max: 5).records.map(\.text) == ["fresh"])
        await queue.close()

        let again = try fixture.open()
        #expect(again.recovery == nil)
        await again.close()
    }

    @Test("a damaged page inside a valid file is caught by quick_check and recovered")
    func damagedPage() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        var queue = try fixture.open()
        try await queue.append(contentsOf: (0 ..< 2000).map { fixture.record(String(repeating: "x", count: 100) + "\($0)") })
        await queue.close()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.path))
        try handle.seek(toOffset: UInt64(fixture.configuration.pageSize * 3))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: fixture.configuration.pageSize * 4))
        try handle.close()

        queue = try fixture.open()
        let recovery = try #require(queue.recovery)
        #expect(!recovery.reason.isEmpty)
        #expect(FileManager.default.fileExists(atPath: recovery.movedAsidePaths[0]))
        #expect(try await queue.stats().pending == 0)
        await queue.close()
    }

    @Test("a tool attaching to a garbage file gets a typed error and leaves the file alone")
    func attachDoesNotReplace() async throws {
        let fixture = try QueueFixture()
        defer { fixture.directory.remove() }
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: fixture.path))
        #expect { try fixture.open(.attach) } throws: { ($0 as? QueueError)?.code == .corrupt }
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == Data(repeating: 0x42, count: 8192))
        try FileManager.default.removeItem(atPath: fixture.path)
        #expect { try fixture.open(.attach) } throws: { ($0 as? QueueError)?.code == .missing }
    }
}
