#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayStatus
import Glibc
import OutputFormats

/// Whether the daemon is running, judged from its status report: a report exists, its process
/// is alive, and it was written within three refresh periods. Anything else means the numbers
/// shown are the last ones the daemon left, not live ones.
struct DaemonLiveness: Equatable {
    /// True only for a fresh report from a live process.
    let running: Bool
    /// `running (pid 412, report 2 s old)` or `daemon not running (last report …, pid 412 is gone)`.
    let detail: String

    /// Judges `report` at `now`; `isAlive` answers whether a process id exists.
    init(report: GatewayStatusReport?, reportProblem: String?, now: Date, isAlive: (Int32) -> Bool = DaemonLiveness.processExists) {
        guard let report else {
            running = false
            detail = "daemon not running (" + (reportProblem ?? "no status report yet: it has not run with this state directory") + ")"
            return
        }
        let age = now.timeIntervalSince(report.writtenAt)
        let last = "last report \(RFC3339.format(report.writtenAt)), \(AgeText.format(seconds: age)) ago"
        if !isAlive(report.pid) {
            running = false
            detail = "daemon not running (\(last); pid \(report.pid) is gone)"
        } else if age > 3 * report.refreshSeconds {
            running = false
            detail = "daemon not running (\(last), older than 3 × \(AgeText.format(seconds: report.refreshSeconds)))"
        } else {
            running = true
            detail =
                "running (pid \(report.pid), up \(AgeText.format(seconds: now.timeIntervalSince(report.startedAt))), report \(AgeText.format(seconds: age)) old)"
        }
    }

    /// `kill(pid, 0)`: the process exists (EPERM means it exists under another user).
    static func processExists(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
