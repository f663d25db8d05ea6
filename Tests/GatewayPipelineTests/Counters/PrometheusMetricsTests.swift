import Foundation
@testable import GatewayPipeline
import GatewayStatus
@testable import OfflineQueue
import PipelineTestSupport
import Testing

/// The exposition text, parsed back line by line.
@Suite("Operations: Prometheus metrics")
struct PrometheusMetricsTests {
    /// One sample line: name, labels, value.
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: String
    }

    /// Parses the 0.0.4 text format strictly enough to catch malformed output: every family has
    /// HELP then TYPE before its samples, every sample line is `name{labels} value`.
    static func parse(_ text: String) throws -> (samples: [Sample], types: [String: String]) {
        #expect(text.hasSuffix("\n"))
        var samples: [Sample] = []
        var types: [String: String] = [:]
        var helped: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") {
                helped.insert(String(line.dropFirst(7).split(separator: " ")[0]))
                continue
            }
            if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                #expect(parts.count == 2 && helped.contains(String(parts[0])), "TYPE without HELP: \(line)")
                types[String(parts[0])] = String(parts[1])
                continue
            }
            let match = try #require(try #/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/#.wholeMatch(in: String(line)), "bad line: \(line)")
            var labels: [String: String] = [:]
            if let body = match.output.3 {
                for label in try labelPairs(String(body)) { labels[label.0] = label.1 }
            }
            let name = String(match.output.1)
            let family = ["_bucket", "_sum", "_count"].reduce(name) { $0.hasSuffix($1) && types[$0] == nil ? String($0.dropLast($1.count)) : $0 }
            #expect(types[family] != nil, "sample before its TYPE: \(line)")
            samples.append(Sample(name: name, labels: labels, value: String(match.output.4)))
        }
        return (samples, types)
    }

    /// `a="x",b="y\"z"` → pairs, unescaping `\\`, `\"`, `\n`.
    static func labelPairs(_ text: String) throws -> [(String, String)] {
        var pairs: [(String, String)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let equals = try #require(rest.firstIndex(of: "="))
            let name = rest[..<equals]
            rest = rest[rest.index(after: equals)...]
            #expect(rest.first == "\"")
            rest = rest.dropFirst()
            var value = ""
            while let character = rest.first, character != "\"" {
                rest = rest.dropFirst()
                if character == "\\", let next = rest.first {
                    rest = rest.dropFirst()
                    value.append(next == "n" ? "\n" : next)
                } else {
                    value.append(character)
                }
            }
            rest = rest.dropFirst()
            if rest.first == "," { rest = rest.dropFirst() }
            pairs.append((String(name), value))
        }
        return pairs
    }

    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> String? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    @Test("renders per-sensor counters, evictions, queue depth, latency histogram, token refreshes and clock with HELP and TYPE")
    func render() throws {
        let report = StatusReportFixtures.report(sensors: [
            StatusReportFixtures.sensor("F0:1D:2E:3C:00:01", received: 100), StatusReportFixtures.sensor("F0:1D:2E:3C:00:02", received: 50),
        ])
        let queue = QueueStats(
            pending: 12, leased: 3, dead: 1, evicted: 7, evictedByStream: ["F0:1D:2E:3C:00:01": 7, "odd \"stream\"\nname\\": 2],
            oldestPendingAgeNanoseconds: 5_000_000_000, databaseBytes: 65536, unflushed: 0, storageFault: nil)
        let metrics = PrometheusMetrics()
        for seconds in [0.07, 1.5, 100] { metrics.observeUploadLatency(seconds) }
        let (samples, types) = try Self.parse(metrics.render(report: report, queue: queue, disk: DiskSpace(freeBytes: 200 << 20, totalBytes: 8 << 30)))

        let first = ["sensor": "F0:1D:2E:3C:00:01"]
        let second = ["sensor": "F0:1D:2E:3C:00:02"]
        #expect(types["edge_gateway_samples_received_total"] == "counter")
        #expect(Self.value(samples, "edge_gateway_samples_received_total", first) == "100")
        #expect(Self.value(samples, "edge_gateway_samples_received_total", second) == "50")
        #expect(Self.value(samples, "edge_gateway_samples_accepted_total", first) == "99")
        #expect(Self.value(samples, "edge_gateway_samples_delivered_total", second) == "40")
        #expect(Self.value(samples, "edge_gateway_samples_duplicate_total", first) == "2")
        #expect(Self.value(samples, "edge_gateway_samples_rejected_total", first) == "1")
        #expect(Self.value(samples, "edge_gateway_malformed_frames_total", first) == "3")
        #expect(Self.value(samples, "edge_gateway_reconnects_total", second) == "4")
        #expect(Self.value(samples, "edge_gateway_samples_evicted_total", first) == "7")
        #expect(Self.value(samples, "edge_gateway_samples_evicted_total", second) == "0")
        #expect(Self.value(samples, "edge_gateway_samples_evicted_total", ["sensor": "odd \"stream\"\nname\\"]) == "2")
        #expect(types["edge_gateway_queue_records"] == "gauge")
        #expect(Self.value(samples, "edge_gateway_queue_records", ["state": "pending"]) == "12.0")
        #expect(Self.value(samples, "edge_gateway_queue_records", ["state": "leased"]) == "3.0")
        #expect(Self.value(samples, "edge_gateway_queue_records", ["state": "dead"]) == "1.0")
        #expect(Self.value(samples, "edge_gateway_queue_db_bytes") == "65536.0")
        #expect(types["edge_gateway_upload_latency_seconds"] == "histogram")
        let buckets = samples.filter { $0.name == "edge_gateway_upload_latency_seconds_bucket" }.map { ($0.labels["le"]!, $0.value) }
        #expect(buckets.map(\.0) == ["0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "60.0", "+Inf"])
        #expect(buckets.map(\.1) == ["0", "1", "1", "1", "1", "2", "2", "2", "2", "2", "3"])
        let sumText = try #require(Self.value(samples, "edge_gateway_upload_latency_seconds_sum"))
        let sum = try #require(Double(sumText))
        #expect(abs(sum - 101.57) < 1e-9)
        #expect(Self.value(samples, "edge_gateway_upload_latency_seconds_count") == "3")
        #expect(Self.value(samples, "edge_gateway_token_refreshes_total") == "2")
        #expect(Self.value(samples, "edge_gateway_clock_synchronized") == "1.0")
        #expect(Self.value(samples, "edge_gateway_samples_awaiting_clock") == "0.0")
    }

    @Test("what the alerting rules read: each strap's last sample, the uplink's failure and success times, re-enrolment, the queue's oldest, the disk")
    func alertingSeries() throws {
        var report = StatusReportFixtures.report(sensors: [StatusReportFixtures.sensor("F0:1D:2E:3C:00:01", received: 10)])
        report.sensors.append(StatusReportFixtures.sensor("F0:1D:2E:3C:00:02", received: 0))
        report.sensors[1].lastSampleAt = nil
        let failing = Date(timeIntervalSince1970: 1_800_000_000)
        report.uplink.failingSince = failing
        report.uplink.reenrolmentRequired = "invalid_grant"
        let queue = QueueStats(
            pending: 5, leased: 0, dead: 0, evicted: 0, evictedByStream: [:], oldestPendingAgeNanoseconds: 90_500_000_000,
            databaseBytes: 0, unflushed: 0, storageFault: nil)
        let disk = DiskSpace(freeBytes: 200 << 20, totalBytes: 8 << 30, readOnly: true)
        let samples = try Self.parse(PrometheusMetrics().render(report: report, queue: queue, disk: disk)).samples

        let last = try #require(Self.value(samples, "edge_gateway_sensor_last_sample_timestamp_seconds", ["sensor": "F0:1D:2E:3C:00:01"]))
        #expect(abs(try #require(Double(last)) - report.sensors[0].lastSampleAt!.timeIntervalSince1970) < 0.001)
        #expect(
            Self.value(samples, "edge_gateway_sensor_last_sample_timestamp_seconds", ["sensor": "F0:1D:2E:3C:00:02"]) == nil,
            "a strap that never sent a sample has no series (absent, not 1970)")
        #expect(Self.value(samples, "edge_gateway_uplink_failing_since_timestamp_seconds") == "1800000000.0")
        let success = try #require(Double(Self.value(samples, "edge_gateway_uplink_last_success_timestamp_seconds") ?? ""))
        #expect(abs(success - report.uplink.lastSuccessAt!.timeIntervalSince1970) < 0.001)
        #expect(Self.value(samples, "edge_gateway_reenrolment_required") == "1.0")
        #expect(Self.value(samples, "edge_gateway_queue_oldest_pending_age_seconds") == "90.5")
        #expect(Self.value(samples, "edge_gateway_state_disk_free_bytes") == "209715200.0")
        #expect(Self.value(samples, "edge_gateway_state_disk_size_bytes") == "8589934592.0")
        #expect(Self.value(samples, "edge_gateway_state_disk_read_only") == "1.0")

        report.uplink.failingSince = nil
        report.uplink.reenrolmentRequired = nil
        let healthy = try Self.parse(PrometheusMetrics().render(report: report, queue: queue, disk: nil)).samples
        #expect(Self.value(healthy, "edge_gateway_uplink_failing_since_timestamp_seconds") == "0.0")
        #expect(Self.value(healthy, "edge_gateway_reenrolment_required") == "0.0")
        #expect(Self.value(healthy, "edge_gateway_state_disk_free_bytes") == nil, "an unreadable disk leaves its series out")
    }

    @Test("a second scrape advances each counter by the increase only, keeps a counter whose source fell, and sets gauges anew")
    func secondScrape() throws {
        let metrics = PrometheusMetrics()
        let strap = ["sensor": "F0:1D:2E:3C:00:01"]
        func scrape(received: Int, pending: Int, evicted: Int) throws -> [Sample] {
            let report = StatusReportFixtures.report(sensors: [StatusReportFixtures.sensor("F0:1D:2E:3C:00:01", received: received)])
            let queue = QueueStats(
                pending: pending, leased: 0, dead: 0, evicted: evicted, evictedByStream: ["F0:1D:2E:3C:00:01": evicted],
                oldestPendingAgeNanoseconds: nil, databaseBytes: 0, unflushed: 0, storageFault: nil)
            return try Self.parse(metrics.render(report: report, queue: queue, disk: nil)).samples
        }
        _ = try scrape(received: 100, pending: 12, evicted: 7)
        let second = try scrape(received: 130, pending: 2, evicted: 3)
        #expect(Self.value(second, "edge_gateway_samples_received_total", strap) == "130")
        #expect(Self.value(second, "edge_gateway_queue_records", ["state": "pending"]) == "2.0")
        #expect(Self.value(second, "edge_gateway_samples_evicted_total", strap) == "7")
        let third = try scrape(received: 130, pending: 2, evicted: 9)
        #expect(Self.value(third, "edge_gateway_samples_evicted_total", strap) == "9")
    }

    @Test("a label value from a hostile queue file is escaped, and a latency on a bound, negative or NaN lands in the first bucket")
    func escapingAndBounds() throws {
        let metrics = PrometheusMetrics()
        for seconds in [0.05, -1, .nan] { metrics.observeUploadLatency(seconds) }
        let queue = QueueStats(
            pending: 0, leased: 0, dead: 0, evicted: 1, evictedByStream: ["a\\b\"c\nd": 1],
            oldestPendingAgeNanoseconds: nil, databaseBytes: 0, unflushed: 0, storageFault: nil)
        let text = metrics.render(report: StatusReportFixtures.report(sensors: []), queue: queue, disk: nil)
        #expect(text.contains(#"edge_gateway_samples_evicted_total{sensor="a\\b\"c\nd"} 1"#))
        let (samples, _) = try Self.parse(text)
        #expect(Self.value(samples, "edge_gateway_upload_latency_seconds_bucket", ["le": "0.05"]) == "3")
        #expect(Self.value(samples, "edge_gateway_upload_latency_seconds_sum") == "0.05")
    }
}
