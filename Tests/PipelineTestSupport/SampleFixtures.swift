import Foundation
import GATTHeartRate

/// Numbered heart-rate samples with fixed identities and times, so a test can name the exact
/// bytes and keys they are stored under (shared by the record codec's tests and the `queue`
/// command's process tests).
package enum SampleFixtures {
    /// The strap every fixture sample comes from.
    package static let sensor = BluetoothAddress("F0:1D:2E:3C:4B:5A")!

    /// Sample `index` (0…9): `70 + index` bpm, captured `index` seconds after a fixed synchronised instant.
    package static func sample(_ index: Int, patient: String? = "patient-7") -> HeartRateSample {
        HeartRateSample(
            id: UUID(uuidString: "00000000-0000-4000-8000-00000000000\(index)")!, sensor: sensor, patientID: patient,
            measurement: HeartRateMeasurement(bpm: UInt16(70 + index), contact: .detected, rrIntervals: [722, 712]),
            captured: CaptureTime(
                wallClockNanoseconds: 1_795_000_000_000_000_000 + Int64(index) * 1_000_000_000,
                wallClockSynchronized: true, monotonicNanoseconds: 5_000_000_000,
                bootID: UUID(uuidString: "11111111-2222-4333-8444-555555555555")!))
    }
}
