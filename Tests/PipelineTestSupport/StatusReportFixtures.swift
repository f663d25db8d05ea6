import Foundation
@testable import GatewayStatus

/// Status reports shared by the library's operations tests and the `status` command's process
/// tests. `@testable` because the report's fields are the daemon's own, not public API.
package enum StatusReportFixtures {
    /// A strap at `address` that is delivering (alias `bed 1`, patient `40001`), its counters
    /// derived from `received`; `bpm: nil` plays one with no sample yet.
    package static func sensor(_ address: String, bpm: Int? = 72, received: Int = 100) -> GatewayStatusReport.SensorStatus {
        var sensor = GatewayStatusReport.SensorStatus(
            address: address, adapter: "hci1", alias: "bed 1", patientID: "40001", state: "streaming", stateDetail: "notifying",
            lastSampleAt: Date(timeIntervalSinceNow: -2), bpm: bpm, batteryPercent: 87, samplesReceived: received,
            samplesAccepted: received - 1, samplesDelivered: received - 10, samplesDuplicate: 2, samplesRejected: 1,
            malformedFrames: 3, reconnects: 4)
        (sensor.skinContact, sensor.rrIntervalsMs, sensor.rssi) = ("detected", [812.5, 790.0390625], -67)
        return sensor
    }

    /// A report from `pid`; the long default refresh period keeps it fresh however slowly a
    /// loaded machine gets to reading it.
    package static func report(
        pid: Int32 = getpid(), writtenAgo: TimeInterval = 1, refreshSeconds: Double = 600, sensors: [GatewayStatusReport.SensorStatus],
        adapters: [GatewayStatusReport.AdapterStatus] = []
    ) -> GatewayStatusReport {
        let now = Date()
        return GatewayStatusReport(
            gatewayName: "ward-3", pid: pid, startedAt: now.addingTimeInterval(-3600), writtenAt: now.addingTimeInterval(-writtenAgo),
            refreshSeconds: refreshSeconds, clockSynchronized: true, samplesAwaitingClock: 0, sensors: sensors,
            adapters: adapters,
            uplink: GatewayStatusReport.UplinkStatus(
                server: "http://127.0.0.1:9", lastSuccessAt: now.addingTimeInterval(-30), lastErrorAt: now.addingTimeInterval(-300),
                lastError: "HTTP 503 from 127.0.0.1:9", tokenExpiresAt: nil, tokenRefreshes: 2, reenrolmentRequired: nil))
    }

    /// Upload attempt `index`: `index` samples delivered, `index` seconds after a fixed instant.
    package static func attempt(_ index: Int, error: String? = nil) -> UploadAttempt {
        UploadAttempt(
            startedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)), durationSeconds: 0.25, samples: index,
            delivered: index, duplicate: 0, rejected: 0, forbidden: 0, skipped: 0, retryLater: 0, error: error)
    }
}
