import ArgumentParser
import BlueZ
import OutputFormats

/// A command's failure: the sentence for the operator and the exit status for scripts
/// (`ExitStatus`: 69 BlueZ/adapter unavailable, 75 temporary, 1 other).
package struct CommandError: Error, CustomStringConvertible {
    let exitCode: ExitCode
    /// The sentence for the operator, printed after `edge-gateway <command>: ` on standard error.
    package let description: String

    init(exitCode: ExitCode, description: String) {
        self.exitCode = exitCode
        self.description = description
    }

    static func unavailable(_ message: String) -> CommandError { CommandError(exitCode: ExitStatus.unavailable, description: message) }
    /// A failure that may clear if the command is run again later (exit 75).
    package static func temporary(_ message: String) -> CommandError { CommandError(exitCode: ExitStatus.temporaryFailure, description: message) }
    /// Any other failure (exit 1).
    package static func other(_ message: String) -> CommandError { CommandError(exitCode: ExitStatus.negative, description: message) }

    /// The status a BlueZ error deserves: bluetoothd gone → unavailable, transient → temporary.
    init(_ error: BlueZError) {
        exitCode =
            error.isDaemonUnavailable
            ? ExitStatus.unavailable
            : error.isTransient ? ExitStatus.temporaryFailure : ExitStatus.negative
        description = error.description
    }

    /// Runs `body`; a `CommandError` is printed to standard error and becomes the exit status.
    package static func reporting(_ command: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandError {
            StandardError.writeLine("edge-gateway \(command): \(failure.description)")
            throw failure.exitCode
        } catch let error as BlueZError {
            let failure = CommandError(error)
            StandardError.writeLine("edge-gateway \(command): \(failure.description)")
            throw failure.exitCode
        }
    }
}
