import Foundation

/// One strap as `status` shows it: the daemon's last view of it, or only its binding when the
/// daemon has not reported on it (counts then unknown).
struct SensorRow {
    let address: String
    let alias: String?
    let patientID: String?
    let state: String
    let stateDetail: String
    let lastSampleAt: Date?
    let bpm: Int?
    let batteryPercent: Int?
    /// The daemon's counters, nil when it has not reported on this strap.
    let counts: GatewayStatusReport.SensorStatus?

    /// A strap the daemon reports on.
    init(status: GatewayStatusReport.SensorStatus) {
        address = status.address
        alias = status.alias
        patientID = status.patientID
        state = status.state
        stateDetail = status.stateDetail
        lastSampleAt = status.lastSampleAt
        bpm = status.bpm
        batteryPercent = status.batteryPercent
        counts = status
    }

    /// A bound strap the daemon has not reported on.
    init(binding: SensorBinding) {
        address = binding.address.description
        alias = binding.alias
        patientID = binding.patientID
        state = "unknown"
        stateDetail = "bound, but not in the daemon's report"
        lastSampleAt = nil
        bpm = nil
        batteryPercent = nil
        counts = nil
    }
}
