#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One decoded notification, stamped on arrival: the unit the queue stores and the uplink sends.
package struct HeartRateSample: Sendable, Hashable, Codable, Identifiable {
    /// Minted once at capture and never changed: it becomes the OMH `header.uuid` and the FHIR
    /// identifier `urn:uuid:<id>`, which is what lets the server drop a re-sent sample (409).
    package var id: UUID
    /// The strap that sent it.
    package var sensor: BluetoothAddress
    /// The patient the strap was bound to when the sample arrived, if any.
    package var patientID: String?
    /// What the strap measured.
    package var measurement: HeartRateMeasurement
    /// When it arrived.
    package var captured: CaptureTime

    /// A sample from its parts.
    package init(
        id: UUID, sensor: BluetoothAddress, patientID: String?,
        measurement: HeartRateMeasurement, captured: CaptureTime
    ) {
        self.id = id
        self.sensor = sensor
        self.patientID = patientID
        self.measurement = measurement
        self.captured = captured
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case sensor
        case patientID = "patient_id"
        case measurement
        case captured
    }
}
