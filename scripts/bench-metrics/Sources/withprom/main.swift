import Measurement
import Metrics
import Prometheus

/// The same figures recorded as they happen through swift-metrics into swift-prometheus's
/// registry (2 counters and a gauge per sample, 10 straps as labels), then rendered.
let registry = PrometheusCollectorRegistry()
MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
let straps = (0..<10).map { "F0:1D:2E:3C:4B:5\($0)" }
let received = straps.map { Counter(label: "egw_samples_received_total", dimensions: [("strap", $0)]) }
let accepted = straps.map { Counter(label: "egw_samples_accepted_total", dimensions: [("strap", $0)]) }
let rate = straps.map { Gauge(label: "egw_heart_rate_bpm", dimensions: [("strap", $0)]) }
for index in 0..<20 { Counter(label: "egw_other_\(index)_total").increment() }
var start = cpuSeconds()
for index in 0..<sampleCount {
    let strap = index % 10
    received[strap].increment()
    accepted[strap].increment()
    rate[strap].record(Double(60 + index % 100))
}
print("swift-metrics + swift-prometheus: \(oneDecimal((cpuSeconds() - start) / Double(sampleCount) * 1e9)) ns CPU per sample")
var buffer: [UInt8] = []
start = cpuSeconds()
for _ in 0..<10_000 {
    buffer.removeAll(keepingCapacity: true)
    registry.emit(into: &buffer)
}
print("exposition of \(buffer.count) bytes: \(oneDecimal((cpuSeconds() - start) / 10_000 * 1e6)) µs CPU per scrape")
print("max RSS \(peakRSSKiB()) KiB")
