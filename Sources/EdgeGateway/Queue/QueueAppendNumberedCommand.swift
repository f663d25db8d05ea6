import ArgumentParser
import Foundation
import OfflineQueue

/// A hidden load generator for the crash-consistency test and `make soak`: appends records whose
/// payload is a decimal number, as fast as the queue accepts them, and prints each number only
/// once its group commit returned. Whatever it printed before a `kill -9` must be in the queue.
struct QueueAppendNumberedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append-numbered",
        abstract: "Testing aid: append numbered records and print each accepted number.",
        shouldDisplay: false
    )

    @OptionGroup var state: StateDirectoryOption

    @Option(name: .long, help: "The first number.")
    var first: Int = 0

    @Option(name: .long, help: "Stop after this many numbers (default: never).")
    var count: Int = .max

    @Option(name: .long, help: "Concurrent appenders.")
    var workers: Int = 8

    @Option(name: .long, help: "Records per append call.")
    var chunk: Int = 32

    @Option(name: .customLong("commit-interval-ms"), help: "Group commit interval.")
    var commitIntervalMilliseconds: Int = 5

    func run() async throws {
        var configuration = QueueConfiguration()
        configuration.commitInterval = .milliseconds(commitIntervalMilliseconds)
        let queue: OfflineQueue
        do {
            queue = try OfflineQueue(path: state.queuePath, access: .owner, configuration: configuration)
        } catch {
            throw QueueFailure.exit(for: error)
        }
        if let recovery = queue.recovery { QueueFailure.report("\(recovery)") }
        let (workers, chunk, first, count) = (workers, chunk, first, count)
        try await QueueFailure.run(queue) { queue in
            try await withThrowingTaskGroup { group in
                for worker in 0..<workers {
                    group.addTask {
                        var start = worker * chunk
                        while start < count {
                            let numbers = (first + start)..<(first + min(start + chunk, count))
                            let now = SystemQueueClock().nanosecondsSince1970()
                            let records = numbers.map { number in
                                NewRecord(payload: Data(String(number).utf8), stream: "numbered",
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
