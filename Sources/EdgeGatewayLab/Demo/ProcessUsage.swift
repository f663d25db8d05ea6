import Foundation
import GatewayCommandLine
import Glibc

/// CPU time, memory and open files of a process, from `/proc/<pid>/stat`, `/proc/<pid>/status`
/// and `/proc/<pid>/fd`: how the demo reports what the daemon costs per sample, and how the soak
/// shows that nothing leaks.
struct ProcessUsage: Sendable {
    /// User + system CPU time, seconds.
    let cpuSeconds: Double
    /// Resident set size now and at its peak, bytes.
    let residentBytes: Int
    let peakResidentBytes: Int
    /// The resident pages that are the process's own (heap, stacks, copied-on-write data):
    /// `RssAnon`, what a leak grows. RSS also counts file pages, which come and go as code
    /// runs and the daemon unmaps what it ran once (`CodePageTrim`).
    let anonymousBytes: Int
    /// Open file descriptors (entries of `/proc/<pid>/fd`).
    let openFileDescriptors: Int

    /// The usage of `pid`; nil when it is gone.
    init?(pid: pid_t) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        cpuSeconds = (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        residentBytes = Self.field("VmRSS:", in: status) * 1024
        peakResidentBytes = Self.field("VmHWM:", in: status) * 1024
        anonymousBytes = Self.field("RssAnon:", in: status) * 1024
        openFileDescriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// The number after `key` in a `/proc` file of `key: value` lines (`VmRSS:`, `write_bytes:`);
    /// 0 when absent.
    static func field(_ key: String, in text: String) -> Int {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
        return Int(line.dropFirst(key.count).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
    }
}
