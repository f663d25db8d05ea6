import Foundation
import Logging
import ServiceLifecycle

/// Publishes the daemon's view every `interval`: `status.json` for `edge-gateway status`, and
/// whatever `onReport` does with it (the systemd status line and watchdog).
///
/// The file changes every few seconds, so it is kept off the SD card when systemd gives the
/// service a runtime directory (tmpfs): it is written there, and `<state>/status.json` is a
/// symbolic link to it. It is written atomically (rename) but not synced: it is a snapshot,
/// not data, and the next one follows in seconds.
struct StatusReporter: Service {
    let stateDirectory: String
    let runtimeDirectory: String?
    let counters: DaemonCounters
    let gatewayName: String
    let clock: CaptureClock
    let logger: Logger
    var interval: Duration = .seconds(5)
    var onReport: @Sendable (GatewayStatusReport) -> Void = { _ in }

    /// Where the report is written.
    var reportPath: String { (runtimeDirectory ?? stateDirectory) + "/" + GatewayStatusReport.fileName }

    func run() async throws {
        linkFromStateDirectory()
        let startedAt = Date()
        var failing = false
        while true {
            let report = counters.read {
                $0.report(name: gatewayName, startedAt: startedAt, refreshSeconds: interval.seconds,
                          clockSynchronized: clock.source.isSynchronized())
            }
            do {
                try StatusReportFile.write(report, directory: runtimeDirectory ?? stateDirectory)
                failing = false
            } catch {
                if !failing { logger.warning("cannot write the status report", metadata: ["path": "\(reportPath)", "error": "\(error)"]) }
                failing = true
            }
            onReport(report)
            if Task.isCancelledOrShuttingDown { return }
            await ServicePause.sleep(for: interval)
        }
    }

    private func linkFromStateDirectory() {
        guard runtimeDirectory != nil else { return }
        let link = stateDirectory + "/" + GatewayStatusReport.fileName
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == reportPath { return }
        try? FileManager.default.removeItem(atPath: link)
        do {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: reportPath)
        } catch {
            logger.warning("cannot link the status report into the state directory", metadata: ["error": "\(error)"])
        }
    }
}
