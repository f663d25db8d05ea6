#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DurableFile
import GatewayConfiguration
import GatewayPipeline
import GatewayStatus
import Glibc
import OfflineQueue
import OutputFormats
import Uplink

/// Everything `status` shows, read from the state directory at one moment: the daemon's last
/// report, the bindings, the queue (opened read-only beside a possibly running daemon) and the
/// credentials file (so the uplink facts are right even when the daemon is not running).
/// Each part that cannot be read carries its reason instead of failing the whole command.
package struct GatewaySnapshot {
    /// The state directory the snapshot was read from, as `status` prints it (and where it finds
    /// the upload history).
    package let stateDirectory: String
    let configuration: GatewayConfiguration
    let now: Date
    let report: GatewayStatusReport?
    let liveness: DaemonLiveness
    let bindings: [SensorBinding]
    let bindingsProblem: String?
    /// nil when there is no queue file yet (nothing was ever queued).
    let queue: Result<QueueStats?, QueueError>
    /// The held queue (`held.sqlite`, samples waiting for the clock); nil when there is none.
    let held: Result<QueueStats?, QueueError>
    /// Damaged queue files the daemon moved aside and nobody has imported yet.
    let movedAside: [MovedAsideQueue]
    /// nil when not enrolled.
    let credentials: Result<Credentials?, UplinkError>
    let clockSynchronized: Bool
    /// nil when `[web] listen` is off.
    let console: ConsoleAccess?

    /// Reads the snapshot.
    package static func load(stateDirectory: String, configuration: GatewayConfiguration, now: Date = Date()) async throws(StateDirectoryError)
        -> GatewaySnapshot
    {
        let kind = FileKind(atPath: stateDirectory)
        guard kind != .missing else {
            throw StateDirectoryError(message: "state directory \(stateDirectory) does not exist; pass --state-dir, or enrol and pair first (they create it)")
        }
        guard kind == .directory, access(stateDirectory, R_OK | X_OK) == 0 else {
            throw StateDirectoryError(
                message: "cannot read state directory \(stateDirectory)"
                    + (kind == .directory ? " (\(String(cString: strerror(errno))))" : " (not a directory)") + "; run as the gateway's user or with sudo")
        }
        let report: GatewayStatusReport?
        var reportProblem: String?
        do {
            report = try StatusReportFile.read(directory: stateDirectory)
        } catch {
            report = nil
            reportProblem = "\(error)"
        }
        let bindings: [SensorBinding]
        var bindingsProblem: String?
        do {
            bindings = try SensorBindingStore(directory: stateDirectory).load()
        } catch {
            bindings = []
            bindingsProblem = "\(error)"
        }
        let credentials: Result<Credentials?, UplinkError> = Result { () throws(UplinkError) in try CredentialsFileStore(directory: stateDirectory).load() }
        return GatewaySnapshot(
            stateDirectory: stateDirectory, configuration: configuration, now: now, report: report,
            liveness: DaemonLiveness(report: report, reportProblem: reportProblem, now: now),
            bindings: bindings, bindingsProblem: bindingsProblem,
            queue: await queueStats(path: stateDirectory + "/queue.sqlite"),
            held: await queueStats(path: stateDirectory + "/" + HeldSamples.fileName),
            movedAside: MovedAsideQueue.find(in: stateDirectory),
            credentials: credentials, clockSynchronized: CaptureClock.isSynchronized,
            console: ConsoleAccess(configuration.web, stateDirectory: stateDirectory))
    }

    /// A queue file's statistics, read with `.attach` (never creating, checking or replacing the
    /// daemon's file); a missing queue is an empty one.
    private static func queueStats(path: String) async -> Result<QueueStats?, QueueError> {
        guard FileManager.default.fileExists(atPath: path) else { return .success(nil) }
        let queue: OfflineQueue
        do {
            queue = try OfflineQueue(path: path, access: .attach)
        } catch {
            return .failure(error)
        }
        let stats: Result<QueueStats?, QueueError>
        do {
            stats = .success(try await queue.stats())
        } catch {
            stats = .failure(error)
        }
        await queue.close()
        return stats
    }

    /// One row per strap: the daemon's view where it has one, else the binding alone.
    var sensorRows: [SensorRow] {
        var rows = (report?.sensors ?? []).map(SensorRow.init(status:))
        for binding in bindings where !rows.contains(where: { $0.status.address == binding.address.description }) {
            rows.append(SensorRow(binding: binding))
        }
        return rows
    }
}

/// The state directory cannot be read at all (exit 69).
package struct StateDirectoryError: CodedError {
    /// The one code.
    package enum Code: String { case unreadable = "status.state-dir-unreadable" }

    /// Always `status.state-dir-unreadable`.
    package let code = Code.unreadable
    /// Which directory and why it cannot be read (missing, not a directory, no permission),
    /// with what to do about it.
    package let message: String
}

extension GatewaySnapshot {
    /// Samples in the held queue (pending or leased), 0 without one; nil when it cannot be read.
    var heldCount: Int? {
        switch held {
        case .success(let stats): (stats?.pending ?? 0) + (stats?.leased ?? 0)
        case .failure: nil
        }
    }

    /// The server uploads go to, or why none may be used (`uplink.server-moved`).
    func uploadServer(_ credentials: Credentials) -> Result<ServerAddress, UplinkError> {
        Result { () throws(UplinkError) in try configuration.uplink.serverSettings.server(for: credentials) }
    }
}
