import GatewayStatus
import OfflineQueue
import Prometheus
import Synchronization

/// The gateway's metrics in the Prometheus text format, kept in swift-prometheus's registry.
///
/// The daemon's figures live in one place, the counter board (`DaemonCounters`) that also makes
/// `status.json` and the systemd status line. Each scrape brings the registry up to date from a
/// snapshot of it: counters by their increase since the previous scrape, gauges set. So the
/// per-sample path never touches the registry, and an idle daemon pays nothing for it. Upload
/// latencies are the one exception: a histogram needs every observation, so each upload round
/// records its duration (``observeUploadLatency(_:)``) as it ends.
///
/// Names: `edge_gateway_samples_{received,accepted,delivered,duplicate,rejected,evicted}_total`,
/// `edge_gateway_malformed_frames_total`, `edge_gateway_reconnects_total` (per sensor, label
/// `sensor`); `edge_gateway_queue_records{state="pending|leased|dead"}`,
/// `edge_gateway_queue_db_bytes`; `edge_gateway_upload_latency_seconds` (histogram);
/// `edge_gateway_token_refreshes_total`; `edge_gateway_clock_synchronized`;
/// `edge_gateway_samples_awaiting_clock`; per adapter (label `adapter`):
/// `edge_gateway_adapter_powered`, `edge_gateway_adapter_slots{state="used|free"}`,
/// `edge_gateway_adapter_{connects,connect_failures,slot_refusals}_total`. For alerting
/// (`deploy/prometheus/edge-gateway.rules.yml`): `edge_gateway_sensor_last_sample_timestamp_seconds`
/// (per sensor, once it has sent one), `edge_gateway_uplink_failing_since_timestamp_seconds` (0
/// while uploads go through), `edge_gateway_uplink_last_success_timestamp_seconds`,
/// `edge_gateway_reenrolment_required`, `edge_gateway_queue_oldest_pending_age_seconds`,
/// `edge_gateway_storage_fault` and `edge_gateway_state_disk_{free,size}_bytes` with
/// `edge_gateway_state_disk_read_only` (the state directory's file system).
package final class PrometheusMetrics: Sendable {
    /// The `Content-Type` of the rendered text.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    /// Upper bounds of the latency histogram in seconds: a JHE batch of 100 entries takes about
    /// 1.2 s, and the server's worker timeout is 30 s, so the buckets resolve both ends.
    static let latencyBounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    private let registry = PrometheusCollectorRegistry()
    /// How long each upload round took, in seconds.
    private let uploadLatency: ValueHistogram
    /// What each counter series has been advanced to, by name and labels.
    private let exported = Mutex<[String: Int]>([:])

    init() {
        uploadLatency = registry.makeValueHistogram(
            descriptor: Self.descriptor("upload_latency_seconds", "Duration of upload rounds to JHE."), buckets: Self.latencyBounds)
    }

    /// Records one upload round's duration (negative or NaN durations count as zero).
    func observeUploadLatency(_ seconds: Double) {
        uploadLatency.record(seconds.isNaN || seconds < 0 ? 0 : seconds)
    }

    /// The exposition text after bringing the registry up to date with `report`, `queue` and
    /// the state directory's `disk` (nil when it could not be examined: its series are left out).
    package func render(report: GatewayStatusReport, queue: QueueStats, disk: DiskSpace?) -> String {
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
            for sensor in report.sensors {
                advance(name, help, [("sensor", sensor.address)], to: sensor[keyPath: field])
            }
        }
        let evictedStreams = Set(queue.evictedByStream.keys).union(report.sensors.map(\.address))
        for stream in evictedStreams {
            advance(
                "samples_evicted_total", "Samples evicted from the queue by its bounds, since the queue file was created.", [("sensor", stream)],
                to: queue.evictedByStream[stream] ?? 0)
        }
        for sensor in report.sensors {
            guard let last = sensor.lastSampleAt else { continue }
            set(
                "sensor_last_sample_timestamp_seconds", "When the strap's last sample arrived (Unix time).", [("sensor", sensor.address)],
                to: last.timeIntervalSince1970)
        }
        for (state, value) in [("pending", queue.pending), ("leased", queue.leased), ("dead", queue.dead)] {
            set("queue_records", "Records in the offline queue by state.", [("state", state)], to: value)
        }
        set("queue_db_bytes", "Bytes the queue database and its write-ahead log occupy.", [], to: Int(queue.databaseBytes))
        set(
            "queue_oldest_pending_age_seconds", "Age of the oldest sample waiting for upload (0 when none waits).", [],
            to: Double(queue.oldestPendingAgeNanoseconds ?? 0) / 1e9)
        set(
            "uplink_failing_since_timestamp_seconds", "When uploads started failing (Unix time); 0 while they go through.", [],
            to: report.uplink.failingSince?.timeIntervalSince1970 ?? 0)
        set(
            "uplink_last_success_timestamp_seconds", "When an upload last went through (Unix time); 0 before the first.", [],
            to: report.uplink.lastSuccessAt?.timeIntervalSince1970 ?? 0)
        set(
            "reenrolment_required", "1 when the server refused the gateway's grant: uploads stop until enroll runs again.", [],
            to: report.uplink.reenrolmentRequired == nil ? 0 : 1)
        advance("token_refreshes_total", "Access-token renewals since the daemon started.", [], to: report.uplink.tokenRefreshes)
        set("clock_synchronized", "1 when the kernel reports the system clock synchronised.", [], to: report.clockSynchronized ? 1 : 0)
        set("samples_awaiting_clock", "Samples held until the clock synchronises.", [], to: report.samplesAwaitingClock)
        for adapter in report.adapters {
            let labels = [("adapter", adapter.name)]
            set("adapter_powered", "1 while the adapter is present and powered.", labels, to: adapter.powered ? 1 : 0)
            for (state, value) in [("used", adapter.slotsUsed), ("free", adapter.slotsFree)] {
                set("adapter_slots", "Connection slots of the adapter by state.", labels + [("state", state)], to: value)
            }
            advance("adapter_connects_total", "Connects that succeeded on the adapter since the daemon started.", labels, to: adapter.connects)
            advance("adapter_connect_failures_total", "Connects that failed on the adapter since the daemon started.", labels, to: adapter.failures)
            advance("adapter_slot_refusals_total", "Connects the adapter refused for want of a slot.", labels, to: adapter.slotRefusals)
        }
        set("storage_fault", "1 while the queue's disk is full or refuses writes (samples wait in memory).", [], to: report.storageFault == nil ? 0 : 1)
        if let disk {
            set("state_disk_free_bytes", "Bytes free to the gateway on the state directory's file system.", [], to: Double(disk.freeBytes))
            set("state_disk_size_bytes", "Size in bytes of the state directory's file system.", [], to: Double(disk.totalBytes))
            set("state_disk_read_only", "1 when the state directory's file system is mounted read-only.", [], to: disk.readOnly ? 1 : 0)
        }
        return registry.emitToString()
    }

    /// `edge_gateway_<name>` with its help text.
    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "edge_gateway", metricName: name, unitName: "", helpText: help)
    }

    /// Advances a counter series to `value`: the registry's counters only go up, by the increase
    /// since the last scrape. A figure that fell (a queue file replaced under the daemon) leaves
    /// the series where it was until the figure passes it again.
    private func advance(_ name: String, _ help: String, _ labels: [(String, String)], to value: Int) {
        let key = name + labels.map { "\u{0}" + $0.1 }.joined()
        let increase = exported.withLock { exported in
            let increase = value - exported[key, default: 0]
            if increase > 0 { exported[key] = value }
            return increase
        }
        let counter = registry.makeCounter(descriptor: Self.descriptor(name, help), labels: labels)
        if increase > 0 { counter.increment(by: Int64(increase)) }
    }

    private func set(_ name: String, _ help: String, _ labels: [(String, String)], to value: Int) {
        set(name, help, labels, to: Double(value))
    }

    private func set(_ name: String, _ help: String, _ labels: [(String, String)], to value: Double) {
        registry.makeGauge(descriptor: Self.descriptor(name, help), labels: labels).set(to: value)
    }
}
