#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate

/// A strap the gateway is responsible for: it is supervised whenever the daemon runs, and its
/// samples are uploaded for `patientID`.
package struct SensorBinding: Codable, Sendable, Equatable {
    /// The strap's address: the key bindings are stored, supervised and reported by.
    package var address: BluetoothAddress
    /// A name the technician chose (`bed 3`), shown instead of the strap's own name.
    package var alias: String?
    /// The JHE patient the strap's samples belong to (used by the uplink).
    package var patientID: String?
    /// When the strap was bound.
    package var addedAt: Date

    /// A binding from its parts.
    package init(address: BluetoothAddress, alias: String?, patientID: String?, addedAt: Date) {
        self.address = address
        self.alias = alias
        self.patientID = patientID
        self.addedAt = addedAt
    }

    private enum CodingKeys: String, CodingKey {
        case address
        case alias
        case patientID = "patient_id"
        case addedAt = "added_at"
    }
}
