#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OfflineQueue

/// The gateway's metrics in the Prometheus text exposition format 0.0.4, built from what the
/// daemon already reports (`GatewayStatusReport`), the queue's statistics and the upload
/// latency histogram. Every metric has its `# HELP` and `# TYPE`; per-sensor series carry a
/// `sensor` label with the strap's address.
///
/// Names: `edge_gateway_samples_{received,accepted,delivered,duplicate,rejected,evicted}_total`,
/// `edge_gateway_malformed_frames_total`, `edge_gateway_reconnects_total` (per sensor);
/// `edge_gateway_queue_records{state="pending|leased|dead"}`, `edge_gateway_queue_db_bytes`;
/// `edge_gateway_upload_latency_seconds` (histogram); `edge_gateway_token_refreshes_total`;
/// `edge_gateway_clock_synchronized`; `edge_gateway_samples_awaiting_clock`.
enum PrometheusExposition {
    /// The `Content-Type` of the rendered text.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition text, ending with a newline.
    static func render(report: GatewayStatusReport, queue: QueueStats, uploadLatency: LatencyHistogram) -> String {
        var text = ""
        let sensors = report.sensors
        let counters: [(String, String, KeyPath<GatewayStatusReport.SensorStatus, Int>)] = [
            ("samples_received_total", "Heart-rate samples decoded from the strap since the daemon started.", \.samplesReceived),
            ("samples_accepted_total", "Samples committed to the offline queue since the daemon started.", \.samplesAccepted),
            ("samples_delivered_total", "Samples stored by JHE (201) since the daemon started.", \.samplesDelivered),
            ("samples_duplicate_total", "Samples JHE already had (409) since the daemon started.", \.samplesDuplicate),
            ("samples_rejected_total", "Samples JHE refused (400/403/422), moved to dead letters, since the daemon started.", \.samplesRejected),
            ("malformed_frames_total", "Heart-rate frames that could not be decoded since the daemon started.", \.malformedFrames),
            ("reconnects_total", "Reconnections to the strap since the daemon started.", \.reconnects),
        ]
        for (name, help, field) in counters {
            header(&text, name, help, "counter")
            for sensor in sensors {
                sample(&text, name, ["sensor": sensor.address], String(sensor[keyPath: field]))
            }
        }
        header(&text, "samples_evicted_total", "Samples evicted from the queue by its bounds, since the queue file was created.", "counter")
        let evictedStreams = Set(queue.evictedByStream.keys).union(sensors.map(\.address)).sorted()
        for stream in evictedStreams {
            sample(&text, "samples_evicted_total", ["sensor": stream], String(queue.evictedByStream[stream] ?? 0))
        }
        header(&text, "queue_records", "Records in the offline queue by state.", "gauge")
        for (state, value) in [("pending", queue.pending), ("leased", queue.leased), ("dead", queue.dead)] {
            sample(&text, "queue_records", ["state": state], String(value))
        }
        header(&text, "queue_db_bytes", "Bytes the queue database and its write-ahead log occupy.", "gauge")
        sample(&text, "queue_db_bytes", [:], String(queue.databaseBytes))
        header(&text, "upload_latency_seconds", "Duration of upload rounds to JHE.", "histogram")
        for bucket in uploadLatency.cumulativeBuckets {
            sample(&text, "upload_latency_seconds_bucket", ["le": number(bucket.upperBound)], String(bucket.count))
        }
        sample(&text, "upload_latency_seconds_sum", [:], number(uploadLatency.sum))
        sample(&text, "upload_latency_seconds_count", [:], String(uploadLatency.count))
        header(&text, "token_refreshes_total", "Access-token renewals since the daemon started.", "counter")
        sample(&text, "token_refreshes_total", [:], String(report.uplink.tokenRefreshes))
        header(&text, "clock_synchronized", "1 when the kernel reports the system clock synchronised.", "gauge")
        sample(&text, "clock_synchronized", [:], report.clockSynchronized ? "1" : "0")
        header(&text, "samples_awaiting_clock", "Samples held until the clock synchronises.", "gauge")
        sample(&text, "samples_awaiting_clock", [:], String(report.samplesAwaitingClock))
        return text
    }

    private static let prefix = "edge_gateway_"

    private static func header(_ text: inout String, _ name: String, _ help: String, _ type: String) {
        text += "# HELP \(prefix)\(name) \(escapedHelp(help))\n# TYPE \(prefix)\(name) \(type)\n"
    }

    private static func sample(_ text: inout String, _ name: String, _ labels: [String: String], _ value: String) {
        let labelText =
            labels.isEmpty ? "" : "{" + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\(escapedLabel($0.value))\"" }.joined(separator: ",") + "}"
        text += "\(prefix)\(name)\(labelText) \(value)\n"
    }

    /// A float as the format writes it: `+Inf`, or Swift's shortest round-tripping text.
    static func number(_ value: Double) -> String {
        value == .infinity ? "+Inf" : value == -.infinity ? "-Inf" : value.isNaN ? "NaN" : "\(value)"
    }

    /// Label values escape backslash, double quote and newline.
    static func escapedLabel(_ value: String) -> String {
        escapedHelp(value).replacing("\"", with: "\\\"")
    }

    /// Help text escapes backslash and newline.
    static func escapedHelp(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
