import Foundation
import GatewayTestSupport
@testable import OfflineQueue

/// A queue file in a test's own directory, with a manual clock and fast commits.
struct QueueFixture {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    var configuration = QueueConfiguration()

    init() throws {
        directory = try TemporaryDirectory("offline-queue")
        configuration.clock = clock
        configuration.commitInterval = .milliseconds(5)
    }

    var path: String { directory.file("queue.sqlite") }

    func open(_ access: QueueAccess = .owner) throws -> OfflineQueue {
        try OfflineQueue(path: path, access: access, configuration: configuration)
    }

    /// A record whose payload is `text`, captured `offset` seconds after the clock's start.
    func record(_ text: String, stream: String = "s1", at offset: Int64 = 0) -> NewRecord {
        NewRecord(
            payload: Data(text.utf8), stream: stream,
            captureTime: 1_800_000_000_000_000_000 + offset * 1_000_000_000, version: 1)
    }
}

extension QueuedRecord {
    /// The payload as text.
    var text: String { String(decoding: payload, as: UTF8.self) }
}
