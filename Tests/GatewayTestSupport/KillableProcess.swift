import BlueZSimulator
import Foundation

/// A child process a test can `kill -9` at a moment of its choosing, with its standard output
/// going to a file that the test reads after the child died (a file, unlike a pipe, keeps
/// everything the child wrote up to the instant it was killed).
package final class KillableProcess: Sendable {
    private let child: ChildProcess
    /// The file holding the child's standard output.
    package let outputPath: String

    /// Starts `product` (from the package's products folder) with `arguments`; standard output
    /// goes to `outputPath`, standard error to `outputPath + ".err"`.
    package init(_ arguments: [String], product: String = "edge-gateway", outputPath: String) throws {
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: outputPath + ".err", contents: nil)
        child = try ChildProcess(
            GatewayProcess.productsDirectory.appendingPathComponent(product).path, arguments, outputPath: outputPath,
            errorPath: outputPath + ".err")
        self.outputPath = outputPath
    }

    /// Sends SIGKILL and waits until the child is gone.
    package func killAndWait() async {
        child.signal(SIGKILL)
        await waitForExit()
    }

    /// Waits until the child has exited.
    package func waitForExit() async {
        while await child.exitStatus(within: .seconds(3600)) == nil {}
    }

    /// Whether the child ended by a signal (our SIGKILL) rather than by exiting on its own.
    package var wasKilled: Bool { child.exitStatusIfEnded().map { $0 & 0x7F != 0 } ?? false }

    /// Whether the child has written anything to standard output yet.
    package var hasOutput: Bool {
        ((try? FileManager.default.attributesOfItem(atPath: outputPath)[.size] as? Int) ?? 0) > 0
    }

    /// Whether the child is still running.
    package var isRunning: Bool { child.exitStatusIfEnded() == nil }

    /// The complete lines the child wrote so far (a line cut by the kill is left out).
    package func outputLines() throws -> [Substring] {
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return Array(lines.dropLast())
    }

    /// What the child wrote to standard error.
    package func errorText() -> String {
        (try? String(contentsOfFile: outputPath + ".err", encoding: .utf8)) ?? ""
    }
}
