import ArgumentParser
import BlueZ

/// A command's failure: the sentence for the operator and the exit status for scripts
/// (69 BlueZ/adapter unavailable, 75 temporary, 1 other).
struct CommandFailure: Error, CustomStringConvertible {
    let exitCode: ExitCode
    let description: String

    init(exitCode: ExitCode, description: String) {
        self.exitCode = exitCode
        self.description = description
    }

    static func unavailable(_ message: String) -> CommandFailure { CommandFailure(exitCode: ExitStatus.unavailable, description: message) }
    static func temporary(_ message: String) -> CommandFailure { CommandFailure(exitCode: ExitStatus.temporaryFailure, description: message) }
    static func other(_ message: String) -> CommandFailure { CommandFailure(exitCode: .failure, description: message) }

    /// The status a BlueZ error deserves: bluetoothd gone → unavailable, transient → temporary.
    init(_ error: BlueZError) {
        exitCode = error.isDaemonUnavailable ? ExitStatus.unavailable
            : error.isTransient ? ExitStatus.temporaryFailure : .failure
        description = error.description
    }

    /// Runs `body`; a `CommandFailure` is printed to standard error and becomes the exit status.
    static func reporting(_ command: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandFailure {
            StandardError.writeLine("edge-gateway \(command): \(failure.description)")
            throw failure.exitCode
        } catch let error as BlueZError {
            let failure = CommandFailure(error)
            StandardError.writeLine("edge-gateway \(command): \(failure.description)")
            throw failure.exitCode
        }
    }
}
