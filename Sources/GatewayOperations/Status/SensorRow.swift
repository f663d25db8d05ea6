import GatewayPipeline
import GatewayStatus
/// One strap as `status` shows it: the daemon's last view of it, or only its binding when the
/// daemon has not reported on it (its counters are then unknown, shown as `-` / null).
struct SensorRow {
    /// The daemon's view, or for an unreported binding its identity and zero counters.
    let status: GatewayStatusReport.SensorStatus
    /// Whether `status` came from the daemon.
    let reported: Bool

    /// A strap the daemon reports on.
    init(status: GatewayStatusReport.SensorStatus) {
        self.status = status
        reported = true
    }

    /// A bound strap the daemon has not reported on.
    init(binding: SensorBinding) {
        status = GatewayStatusReport.SensorStatus(
            address: binding.address.description, alias: binding.alias, patientID: binding.patientID, state: "unknown",
            stateDetail: "bound, but not in the daemon's report", lastSampleAt: nil, bpm: nil, batteryPercent: nil,
            samplesReceived: 0, samplesAccepted: 0, samplesDelivered: 0, samplesDuplicate: 0, samplesRejected: 0,
            malformedFrames: 0, reconnects: 0)
        reported = false
    }

    /// The daemon's counters, nil when it has not reported on this strap.
    var counts: GatewayStatusReport.SensorStatus? { reported ? status : nil }
}
