/// What a process cost over a measurement window, from readings taken once a second: CPU and
/// wake-ups summed over every thread seen in the window (each from its count at the start, or
/// from zero for a thread started inside it), bytes written, and the medians of the resident set
/// and of the private dirty memory.
struct FootprintWindow: Sendable {
    private var baseline: [Int32: (cpuNanoseconds: UInt64, runs: UInt64)]
    private var latest: [Int32: (cpuNanoseconds: UInt64, runs: UInt64)]
    private let firstWriteBytes: UInt64
    private var lastWriteBytes: UInt64
    private var residentBytes: [UInt64] = []
    private var privateDirtyBytes: [UInt64] = []
    private var lastThreadCount: Int

    /// Opens the window at `start`.
    init(start: ProcessCounters) {
        baseline = start.threads
        latest = start.threads
        firstWriteBytes = start.writeBytes
        lastWriteBytes = start.writeBytes
        lastThreadCount = start.threads.count
    }

    /// Adds a reading taken inside the window.
    mutating func add(_ reading: ProcessCounters) {
        for (tid, counts) in reading.threads { latest[tid] = counts }
        lastWriteBytes = reading.writeBytes
        residentBytes.append(reading.residentBytes)
        privateDirtyBytes.append(reading.privateDirtyBytes)
        lastThreadCount = reading.threads.count
    }

    /// CPU time used in the window, nanoseconds.
    var cpuNanoseconds: UInt64 {
        latest.reduce(0) { $0 + $1.value.cpuNanoseconds - (baseline[$1.key]?.cpuNanoseconds ?? 0) }
    }

    /// Times a thread of the process was put on a CPU in the window.
    var runs: UInt64 {
        latest.reduce(0) { $0 + $1.value.runs - (baseline[$1.key]?.runs ?? 0) }
    }

    /// Bytes the process caused to be written to storage in the window.
    var writeBytes: UInt64 { lastWriteBytes - firstWriteBytes }

    /// The median of the once-a-second resident set sizes.
    var medianResidentBytes: UInt64 { Self.median(residentBytes) }

    /// The median of the once-a-second private dirty sizes.
    var medianPrivateDirtyBytes: UInt64 { Self.median(privateDirtyBytes) }

    private static func median(_ values: [UInt64]) -> UInt64 {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Threads alive at the last reading.
    var threadCount: Int { lastThreadCount }
}
