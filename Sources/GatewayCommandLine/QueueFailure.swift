import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OfflineQueue
import OutputFormats

/// Prints a queue error on standard error and picks the exit status (`sysexits.h`).
package enum QueueFailure {
    /// Reports `error` and returns the status to exit with.
    package static func exit(for error: any Error) -> ExitCode {
        guard let queueError = error as? QueueError else {
            report("\(error)")
            return ExitStatus.software
        }
        report("\(queueError)")
        switch queueError.code {
        case .missing: return ExitStatus.noInput
        case .corrupt: return ExitStatus.dataError
        case .inaccessible, .storageFailed: return ExitStatus.cannotCreate
        case .storageFull, .unflushedLimit, .openFailed, .writeFailed, .readFailed: return ExitStatus.ioError
        case .closed: return ExitStatus.software
        }
    }

    /// Writes `message` to standard error, prefixed with the program name.
    package static func report(_ message: String) {
        StandardError.writeLine("edge-gateway: \(message)")
    }

    /// Runs `body` with the queue, closes it, and maps any failure to an exit status.
    package static func run(_ queue: OfflineQueue, _ body: (OfflineQueue) async throws -> Void) async throws {
        do {
            try await body(queue)
            await queue.close()
        } catch let exit as ExitCode {
            await queue.close()
            throw exit
        } catch {
            await queue.close()
            throw Self.exit(for: error)
        }
    }
}
