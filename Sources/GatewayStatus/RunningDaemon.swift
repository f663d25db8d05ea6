#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The daemon running on a state directory, found through its status report: a command that
/// made records pending behind its back (`queue retry-dead`, `import`, `release-held`) tells it
/// to look now, rather than leave them for its next look at the queue.
package enum RunningDaemon {
    /// Sends SIGHUP to the daemon of `stateDirectory`. False when none runs there or it may not
    /// be signalled (another user): it then finds the records within five minutes anyway. The
    /// process must still be `edge-gateway`, so a stale report never signals a reused pid.
    @discardableResult
    package static func nudge(stateDirectory: String) -> Bool {
        guard let report = try? StatusReportFile.read(directory: stateDirectory), report.pid > 0,
            let name = try? String(contentsOfFile: "/proc/\(report.pid)/comm", encoding: .utf8),
            name.filter({ !$0.isWhitespace }) == "edge-gateway"
        else { return false }
        return kill(report.pid, SIGHUP) == 0
    }
}
