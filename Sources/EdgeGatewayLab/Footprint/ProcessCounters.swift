import Foundation

/// A process's cumulative cost as the kernel counts it, thread by thread: CPU time and run
/// count from `/proc/<pid>/task/<tid>/schedstat` (nanoseconds, and how many times each thread
/// was put on a CPU: its wake-ups), bytes written to storage from `/proc/<pid>/io`, and the
/// resident set from `/proc/<pid>/status`. Thread by thread because `/proc/<pid>/stat` counts CPU
/// in 10 ms ticks, too coarse for an idle daemon, and because a thread that ends takes its
/// counts with it: `FootprintWindow` keeps the last reading of every thread it saw.
struct ProcessCounters: Sendable {
    /// Per thread: CPU nanoseconds and times run.
    let threads: [Int32: (cpuNanoseconds: UInt64, runs: UInt64)]
    let writeBytes: UInt64
    let residentBytes: UInt64

    /// Reads `pid`'s counters now; nil once it is gone (or `/proc` is not readable).
    init?(pid: Int32) {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"),
            let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { return nil }
        var threads: [Int32: (UInt64, UInt64)] = [:]
        for task in tasks {
            guard let tid = Int32(task),
                let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)
            else { continue }
            let fields = text.split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
            if fields.count >= 3 { threads[tid] = (fields[0], fields[2]) }
        }
        self.threads = threads
        writeBytes = UInt64(ProcessUsage.field("write_bytes:", in: io))
        residentBytes = UInt64(ProcessUsage.field("VmRSS:", in: status)) * 1024
    }
}
