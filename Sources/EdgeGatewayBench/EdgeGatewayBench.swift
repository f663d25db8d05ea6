#if canImport(Glibc)
import Glibc
#endif

/// `edge-gateway-bench [NAME …]`: release-build benchmarks that print their figures.
/// With no names, runs them all. Run with `swift run -c release edge-gateway-bench`.
@main
enum EdgeGatewayBench {
    static let benchmarks: [(name: String, run: @Sendable () -> Void)] = [
        ("decode", DecodeBenchmark.run),
        ("queue", QueueBenchmark.run),
    ]

    static func main() {
        let requested = Array(CommandLine.arguments.dropFirst())
        let unknown = requested.filter { name in !benchmarks.contains { $0.name == name } }
        guard unknown.isEmpty else {
            print("unknown benchmark \(unknown.joined(separator: ", ")); known: \(benchmarks.map(\.name).joined(separator: ", "))")
            exit(64)
        }
        for benchmark in benchmarks where requested.isEmpty || requested.contains(benchmark.name) {
            benchmark.run()
        }
    }

    /// Peak resident set size of this process so far, in MiB.
    static var peakRSSMiB: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
