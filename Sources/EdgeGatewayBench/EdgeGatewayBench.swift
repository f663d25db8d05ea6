import Glibc

/// `edge-gateway-bench [NAME …]`: release-build benchmarks that print their figures.
/// With no names, runs them all. Run with `swift run -c release edge-gateway-bench`.
@main
enum EdgeGatewayBench {
    static let benchmarks: [(name: String, run: @Sendable () async -> Void)] = [
        ("decode", DecodeBenchmark.run),
        ("notify", NotifyBenchmark.run),
        ("dbus", DBusCallBenchmark.run),
        ("uplink", UplinkBenchmark.run),
        ("queue", QueueBenchmark.run),
    ]

    static func main() async {
        let requested = Array(CommandLine.arguments.dropFirst())
        let unknown = requested.filter { name in !benchmarks.contains { $0.name == name } }
        guard unknown.isEmpty else {
            print("unknown benchmark \(unknown.joined(separator: ", ")); known: \(benchmarks.map(\.name).joined(separator: ", "))")
            exit(64)
        }
        for benchmark in benchmarks where requested.isEmpty || requested.contains(benchmark.name) {
            await benchmark.run()
        }
    }

    /// Peak resident set size of this process so far, in MiB.
    static var peakRSSMiB: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// User + system CPU time of this process so far, in seconds.
    static var cpuSeconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// User + system CPU time of another process so far, in seconds (from /proc/PID/stat).
    static func cpuSeconds(ofProcess pid: Int32) -> Double {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
        let text = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        let fields = text[text.index(after: text.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

extension Duration {
    /// The duration in seconds, for printing rates.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
