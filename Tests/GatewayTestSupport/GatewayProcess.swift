import Foundation
import Synchronization

/// Runs the built `edge-gateway` (or another product) as a real child process, the way a
/// technician or systemd would, and captures what it prints.
public enum GatewayProcess {
    /// What a finished process left behind.
    public struct Result: Sendable {
        /// The exit status (`Process.terminationStatus`), for comparing with the CLI's documented
        /// codes (0, 1, 69, 75, 78 …).
        public let status: Int32
        /// Everything the process wrote to standard output, as UTF-8 text.
        public let standardOutput: String
        /// Everything the process wrote to standard error, as UTF-8 text.
        public let standardError: String

        /// Standard output split into lines, without the final empty one.
        public var outputLines: [String] {
            standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast(standardOutput.hasSuffix("\n") ? 1 : 0).map(String.init)
        }
    }

    /// A process that did not finish in time; it has been killed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The command line it was run with, to say which invocation hung.
        public let arguments: [String]
        /// The command line and that it did not finish, for the test's failure message.
        public var description: String { "\(arguments.joined(separator: " ")) did not finish in time" }
    }

    /// The folder holding the package's built products: the test bundle is built there too.
    public static var productsDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Runs `product` (or the program at `executable`) with `arguments`, feeding
    /// `standardInput`, with `environment` added to this process's, and waits up to `timeout`.
    /// Output goes to files rather than pipes, so a chatty child can never block on a full pipe.
    public static func run(
        _ arguments: [String], product: String = "edge-gateway", executable: String? = nil,
        environment: [String: String] = [:], standardInput: String? = nil, timeout: Duration = .seconds(120)
    ) async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("gateway-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let inURL = scratch.appendingPathComponent("stdin")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        FileManager.default.createFile(atPath: inURL.path, contents: Data((standardInput ?? "").utf8))

        let process = Process()
        process.executableURL = executable.map(URL.init(fileURLWithPath:)) ?? productsDirectory.appendingPathComponent(product)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        // Closed here, not left to deinit: Foundation's Process keeps them past the run, and a
        // suite of hundreds of runs would pass descriptor 1024, which its select() overflows.
        let handles = [try FileHandle(forWritingTo: outURL), try FileHandle(forWritingTo: errURL), try FileHandle(forReadingFrom: inURL)]
        defer { for handle in handles { try? handle.close() } }
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        process.standardInput = handles[2]

        let finished = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in finished.continuation.finish() }
        try process.run()

        let timedOut = Mutex(false)
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            timedOut.withLock { $0 = true }
            kill(process.processIdentifier, SIGKILL)
        }
        for await _ in finished.stream {}
        watchdog.cancel()
        if timedOut.withLock({ $0 }) {
            throw TimedOut(arguments: arguments)
        }
        return Result(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: outURL, encoding: .utf8),
            standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
}
