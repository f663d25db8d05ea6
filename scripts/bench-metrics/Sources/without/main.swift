import Measurement
import Synchronization

/// What the daemon's counter board does per sample: one lock, three figures of one strap.
struct Counts {
    var received = [Int](repeating: 0, count: 10)
    var accepted = [Int](repeating: 0, count: 10)
    var rate = [Double](repeating: 0, count: 10)
}

let counts = Mutex(Counts())
let start = cpuSeconds()
for index in 0..<sampleCount {
    let strap = index % 10
    let value = Double(60 + index % 100)
    counts.withLock { counts in
        counts.received[strap] += 1
        counts.accepted[strap] += 1
        counts.rate[strap] = value
    }
}
print("one Mutex-guarded struct (as DaemonCounters): \(oneDecimal((cpuSeconds() - start) / Double(sampleCount) * 1e9)) ns CPU per sample")
print("max RSS \(peakRSSKiB()) KiB")
