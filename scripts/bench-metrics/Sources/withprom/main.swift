import Metrics
import Prometheus
#if canImport(Glibc)
import Glibc
#endif

func cpu() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    let seconds = Double(u.ru_utime.tv_sec) + Double(u.ru_stime.tv_sec)
    let micro = Double(u.ru_utime.tv_usec) + Double(u.ru_stime.tv_usec)
    return seconds + micro / 1e6
}

let registry = PrometheusCollectorRegistry()
MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
// what the daemon counts per sample: received, accepted, per strap labels (10 straps)
let straps = (0..<10).map { "F0:1D:2E:3C:4B:5\($0)" }
let received = straps.map { Counter(label: "egw_samples_received_total", dimensions: [("strap", $0)]) }
let accepted = straps.map { Counter(label: "egw_samples_accepted_total", dimensions: [("strap", $0)]) }
let rate = straps.map { Gauge(label: "egw_heart_rate_bpm", dimensions: [("strap", $0)]) }
for i in 0..<20 { Counter(label: "egw_other_\(i)_total").increment() }
let n = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 2_000_000
var t0 = cpu()
for i in 0..<n { let s = i % 10; received[s].increment(); accepted[s].increment(); rate[s].record(Double(60 + i % 100)) }
print("swift-metrics + swift-prometheus: \(r1((cpu() - t0) / Double(n) * 1e9)) ns CPU per sample (2 counters + 1 gauge, 10 labelled straps)")
var buffer: [UInt8] = []
t0 = cpu()
for _ in 0..<10_000 { buffer.removeAll(keepingCapacity: true); registry.emit(into: &buffer) }
print("exposition of \(buffer.count) bytes: \(r1((cpu() - t0) / 10_000 * 1e6)) µs CPU per scrape")
var usage = rusage(); getrusage(RUSAGE_SELF.rawValue, &usage); print("max RSS \(usage.ru_maxrss) KiB")
func r1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
