import Foundation
@testable import GatewayPipeline
import GatewayStatus
import GatewayTestSupport
@testable import OfflineQueue
import PipelineTestSupport
import Testing

/// `deploy/prometheus` (alerting rules and their unit tests) and `deploy/grafana` (the
/// dashboard): what a fleet's Prometheus and Grafana read of the daemon's `/metrics`.
@Suite("Deploy: alerting rules and dashboard")
struct MonitoringTests {
    static let files = ["deploy/prometheus/edge-gateway.rules.yml", "deploy/grafana/edge-gateway.json"]

    @Test("every metric the rules and the dashboard name is one the daemon serves")
    func namesExist() throws {
        var report = StatusReportFixtures.report(sensors: [StatusReportFixtures.sensor("F0:1D:2E:3C:00:01", received: 10)])
        report.uplink.failingSince = Date()
        report.adapters = [
            GatewayStatusReport.AdapterStatus(
                name: "hci0", address: "00:1A:7D:DA:71:13", powered: true, slots: 5, straps: ["F0:1D:2E:3C:00:01"], connects: 1,
                failures: 0, slotRefusals: 0)
        ]
        let queue = QueueStats(
            pending: 1, leased: 0, dead: 0, evicted: 1, evictedByStream: ["F0:1D:2E:3C:00:01": 1], oldestPendingAgeNanoseconds: 1,
            databaseBytes: 1, unflushed: 0, storageFault: nil)
        let metrics = PrometheusMetrics()
        metrics.observeUploadLatency(1)
        let text = metrics.render(report: report, queue: queue, disk: DiskSpace(freeBytes: 1, totalBytes: 2))
        var served: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if let name = line.split(whereSeparator: { $0 == "{" || $0 == " " }).first { served.insert(String(name)) }
        }
        for file in Self.files {
            let text = try String(contentsOfFile: DeployTree.path(file), encoding: .utf8)
            let named = Set(text.matches(of: #/edge_gateway_[a-z_]+/#).map { String($0.output) })
            #expect(!named.isEmpty, "\(file) names no metric")
            #expect(named.subtracting(served).isEmpty, "\(file) names metrics the daemon does not serve: \(named.subtracting(served).sorted())")
        }
    }

    @Test("promtool passes the rules' syntax, their unit tests (each alert fires when it should, and only then) and every dashboard query")
    func promtool() async throws {
        let result = try await DeployTree.run(DeployTree.path("scripts/check-monitoring"), [])
        let output = result.standardOutput + result.standardError
        #expect(result.status == 0, "\(output)")
        // promtool 2 (bookworm) and 3 (sid) word their reports differently; both say these.
        #expect(output.contains("SUCCESS: 8 rules found") && output.contains("dashboard queries"), "\(output)")
    }
}
