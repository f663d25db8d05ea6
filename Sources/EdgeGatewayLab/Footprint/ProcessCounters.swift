import Foundation

/// What processes cost as the kernel counts it, thread by thread: CPU time and run count from
/// `/proc/<pid>/task/<tid>/schedstat` (nanoseconds, and how many times each thread was put on a
/// CPU: its wake-ups), bytes written to storage from `/proc/<pid>/io`, the resident set from
/// `/proc/<pid>/status` and the private dirty memory (what the process alone holds and the kernel
/// cannot drop: heap, stacks, written data) from `/proc/<pid>/smaps_rollup`. Thread by thread
/// because `/proc/<pid>/stat` counts CPU in 10 ms ticks, too coarse for an idle daemon, and
/// because a thread that ends takes its counts with it: `FootprintWindow` keeps the last
/// reading of every thread it saw. Several processes (a peer gateway run once per strap) are
/// added up.
struct ProcessCounters: Sendable {
    /// Per thread: CPU nanoseconds and times run.
    let threads: [Int32: (cpuNanoseconds: UInt64, runs: UInt64)]
    let writeBytes: UInt64
    let residentBytes: UInt64
    let privateDirtyBytes: UInt64

    /// The sum of the counters of `pids` now; nil once any of them is gone (or `/proc` is not
    /// readable).
    init?(pids: [Int32]) {
        var threads: [Int32: (UInt64, UInt64)] = [:]
        var (written, resident, dirty): (UInt64, UInt64, UInt64) = (0, 0, 0)
        for pid in pids {
            guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"),
                let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
                let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)
            else { return nil }
            for task in tasks {
                guard let tid = Int32(task),
                    let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)
                else { continue }
                let fields = text.split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
                if fields.count >= 3 { threads[tid] = (fields[0], fields[2]) }
            }
            written += UInt64(ProcessUsage.field("write_bytes:", in: io))
            resident += UInt64(ProcessUsage.field("VmRSS:", in: status)) * 1024
            dirty += UInt64(ProcessUsage.field("Private_Dirty:", in: rollup)) * 1024
        }
        self.threads = threads
        writeBytes = written
        residentBytes = resident
        privateDirtyBytes = dirty
    }
}
