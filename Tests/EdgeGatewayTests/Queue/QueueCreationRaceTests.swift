import Foundation
import GatewayTestSupport
import OfflineQueue
import Testing

/// Creating the queue while other processes open it: a technician's `queue stats` or `status`
/// run while systemd starts the daemon, or two writers started together. Every owner must get
/// the queue and every reader must answer or say there is no queue yet.
///
/// `QUEUE_RACE_ROUNDS` changes the number of rounds (default 12).
@Suite("Queue creation race")
struct QueueCreationRaceTests {
    static let rounds = ProcessInfo.processInfo.environment["QUEUE_RACE_ROUNDS"].flatMap { Int($0) } ?? 12

    @Test("four owners and four readers started together on a fresh directory: every owner keeps its records, every reader answers or says no queue yet")
    func ownersAndReadersTogether() async throws {
        for round in 0 ..< Self.rounds {
            let directory = try TemporaryDirectory("queue-race")
            defer { directory.remove() }
            let results = try await withThrowingTaskGroup(of: (String, GatewayProcess.Result).self) { group in
                for owner in 0 ..< 4 {
                    group.addTask {
                        let arguments = ["append-numbered", "--state-dir", directory.path, "--first", "\(owner * 1000)", "--count", "25", "--workers", "1"]
                        return ("owner \(owner)", try await GatewayProcess.run(arguments, product: "edge-gateway-lab"))
                    }
                }
                for reader in 0 ..< 4 {
                    group.addTask {
                        let command = reader % 2 == 0 ? ["queue", "stats", "--json"] : ["queue", "stats"]
                        return ("\(command.joined(separator: " ")) #\(reader)", try await GatewayProcess.run(command + ["--state-dir", directory.path]))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (name, result) in results {
                let fine = result.status == 0 || (name.hasPrefix("queue") && result.standardError.contains("no queue at"))
                #expect(fine, "round \(round), \(name): exit \(result.status): \(result.standardError)")
            }
            let queue = try OfflineQueue(path: directory.file("queue.sqlite"), access: .attach)
            #expect(try await queue.stats().pending == 100, "round \(round)")
            await queue.close()
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".creating-") }
            #expect(leftovers.isEmpty, "round \(round): drafts left behind: \(leftovers)")
        }
    }
}
