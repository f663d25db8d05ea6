import Foundation
import GATTHeartRate

/// A strap the gateway is responsible for: it is supervised whenever the daemon runs, and its
/// samples are uploaded for `patientID`.
struct SensorBinding: Codable, Sendable, Equatable {
    var address: BluetoothAddress
    /// A name the technician chose (`bed 3`), shown instead of the strap's own name.
    var alias: String?
    /// The JHE patient the strap's samples belong to (used by the uplink).
    var patientID: String?
    /// When the strap was bound.
    var addedAt: Date

    private enum CodingKeys: String, CodingKey {
        case address
        case alias
        case patientID = "patient_id"
        case addedAt = "added_at"
    }
}
