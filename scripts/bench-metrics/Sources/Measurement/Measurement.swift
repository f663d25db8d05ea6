#if canImport(Glibc)
import Glibc
#endif

/// User + system CPU time of this process so far, in seconds.
public func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_stime.tv_sec)
    let microseconds = Double(usage.ru_utime.tv_usec) + Double(usage.ru_stime.tv_usec)
    return seconds + microseconds / 1e6
}

/// Peak resident set size of this process so far, in KiB.
public func peakRSSKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// `value` rounded to one decimal.
public func oneDecimal(_ value: Double) -> Double { (value * 10).rounded() / 10 }

/// How many samples to simulate: the first argument, else two million.
public let sampleCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 2_000_000 : 2_000_000
