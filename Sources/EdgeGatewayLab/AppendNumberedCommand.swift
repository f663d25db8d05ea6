import ArgumentParser
import Foundation
import GatewayCommandLine
import OfflineQueue
import OutputFormats

/// A hidden load generator for the crash-consistency test and the sandbox test: appends records
/// whose payload is a decimal number, as fast as the queue accepts them, and prints each number
/// only once its group commit returned. Whatever it printed before a `kill -9` must be in the
/// queue.
///
/// It writes records no uploader can read (payload version 0), so it never touches a gateway's
/// real state: it needs an explicit `--state-dir` and refuses one that holds credentials or
/// sensor bindings.
struct AppendNumberedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append-numbered",
        abstract: "Testing aid: append numbered records and print each accepted number.",
        shouldDisplay: false
    )

    /// The numbers never go past this, so no sum below can overflow.
    static let largestNumber = 1 << 62

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("A scratch state directory (required; never a gateway's own).", valueName: "DIR"))
    var stateDirectory: String

    @Option(name: .long, help: "The first number (0 to 2^62).")
    var first: Int = 0

    @Option(name: .long, help: "Stop after this many numbers (default: until 2^62).")
    var count: Int?

    @Option(name: .long, help: "Concurrent appenders (1 to 64).")
    var workers: Int = 8

    @Option(name: .long, help: "Records per append call (1 to 10000).")
    var chunk: Int = 32

    @Option(name: .customLong("commit-interval-ms"), help: "Group commit interval (1 to 60000).")
    var commitIntervalMilliseconds: Int = 5

    func validate() throws {
        guard (0 ... Self.largestNumber).contains(first) else { throw ValidationError("--first must be from 0 to 2^62.") }
        guard count.map({ $0 >= 0 }) ?? true else { throw ValidationError("--count must not be negative.") }
        guard (1 ... 64).contains(workers) else { throw ValidationError("--workers must be from 1 to 64.") }
        guard (1 ... 10_000).contains(chunk) else { throw ValidationError("--chunk must be from 1 to 10000.") }
        guard (1 ... 60_000).contains(commitIntervalMilliseconds) else { throw ValidationError("--commit-interval-ms must be from 1 to 60000.") }
        for file in ["credentials.json", "sensors.json"] where FileManager.default.fileExists(atPath: stateDirectory + "/" + file) {
            throw ValidationError(
                "\(stateDirectory) holds \(file): it is a gateway's state, and append-numbered writes test records no uploader can read. Use a scratch directory."
            )
        }
    }

    func run() async throws {
        var configuration = QueueConfiguration()
        configuration.commitInterval = .milliseconds(commitIntervalMilliseconds)
        let queue: OfflineQueue
        do {
            queue = try OfflineQueue(path: stateDirectory + "/queue.sqlite", access: .owner, configuration: configuration)
        } catch {
            throw QueueFailure.exit(for: error)
        }
        if let recovery = queue.recovery { QueueFailure.report("\(recovery)") }
        let (workers, chunk, first) = (workers, chunk, first)
        let limit = min(count ?? .max, Self.largestNumber - first)
        try await QueueFailure.run(queue) { queue in
            try await withThrowingTaskGroup { group in
                for worker in 0 ..< workers {
                    group.addTask {
                        var start = worker * chunk
                        while start < limit {
                            let numbers = (first + start) ..< (first + start + min(chunk, limit - start))
                            let now = SystemQueueClock().nanosecondsSince1970()
                            let records = numbers.map { number in
                                NewRecord(
                                    payload: Data(String(number).utf8), stream: "numbered",
                                    captureTime: now, version: 0)
                            }
                            try await queue.append(contentsOf: records)
                            StandardOutput.writeLine(numbers.map(String.init).joined(separator: "\n"))
                            start += workers * chunk
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
