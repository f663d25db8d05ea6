import BlueZSimulator
import Foundation

/// Runs the built `edge-gateway` (or another product, or any program) as a real child process,
/// the way a technician or systemd would, and captures what it prints.
///
/// Children are started with `posix_spawn` (`ChildProcess`), never Foundation's `Process`, whose
/// `run()` on Linux copies each `/proc/self/fd` entry's whole 256-byte name and can read past
/// glibc's directory buffer: a test process with many descriptors crashed in it (SIGSEGV in
/// memmove, swift-corelibs-foundation#5472).
package enum GatewayProcess {
    /// What a finished process left behind.
    package struct Result: Sendable {
        /// The exit status (or the signal that ended it, as `Process.terminationStatus` gives
        /// it), for comparing with the CLI's documented codes (0, 1, 69, 75, 78 …).
        package let status: Int32
        /// Everything the process wrote to standard output, as UTF-8 text.
        package let standardOutput: String
        /// Everything the process wrote to standard error, as UTF-8 text.
        package let standardError: String

        /// Standard output split into lines, without the final empty one.
        package var outputLines: [String] {
            standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast(standardOutput.hasSuffix("\n") ? 1 : 0).map(String.init)
        }
    }

    /// A process that did not finish in time; it has been killed.
    package struct TimedOut: Error, CustomStringConvertible {
        /// The command line it was run with, to say which invocation hung.
        package let arguments: [String]
        /// The command line and that it did not finish, for the test's failure message.
        package var description: String { "\(arguments.joined(separator: " ")) did not finish in time" }
    }

    /// The folder holding the package's built products: the test bundle is built there too.
    package static var productsDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Runs `product` (or `executable`: a path, or a name looked up in `PATH`) with `arguments`, feeding
    /// `standardInput`, with `environment` added to this process's, and waits up to `timeout`.
    /// Output goes to files rather than pipes, so a chatty child can never block on a full pipe.
    package static func run(
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

        let child = try ChildProcess(
            executable ?? productsDirectory.appendingPathComponent(product).path, arguments, outputPath: outURL.path,
            errorPath: errURL.path, inputPath: inURL.path,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        guard let status = await child.exitStatus(within: timeout) else {
            child.signal(SIGKILL)
            child.wait()
            throw TimedOut(arguments: arguments)
        }
        return Result(
            status: ChildProcess.terminationStatus(status),
            standardOutput: try String(contentsOf: outURL, encoding: .utf8),
            standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
}
