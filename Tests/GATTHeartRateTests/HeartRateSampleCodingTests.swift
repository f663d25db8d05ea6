import Foundation
import GATTHeartRate
import Testing

@Suite("HeartRateSample coding")
struct HeartRateSampleCodingTests {
    static let sample = HeartRateSample(
        id: UUID(uuidString: "6F1C4E0A-2D55-4C8B-9E0D-3B7A1F2E4C5D")!,
        sensor: BluetoothAddress("F0:1D:2E:3C:4B:5A")!,
        patientID: "40006",
        measurement: HeartRateMeasurement(bpm: 78, contact: .detected, energyExpended: 12, rrIntervals: [722, 712]),
        captured: CaptureTime(
            wallClockNanoseconds: 1_795_334_401_250_123_456, wallClockSynchronized: true,
            monotonicNanoseconds: 86_400_000_000_123, bootID: UUID(uuidString: "0B5F3E0C-8F1A-4D2B-A7C1-5E6F7A8B9C0D")!))

    @Test("round-trips through JSON exactly, nanoseconds included")
    func roundTrip() throws {
        let data = try JSONEncoder().encode(Self.sample)
        #expect(try JSONDecoder().decode(HeartRateSample.self, from: data) == Self.sample)
    }

    @Test("writes stable snake_case keys that stored records depend on")
    func stableKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try #require(String(data: try encoder.encode(Self.sample), encoding: .utf8))
        #expect(
            json
                == #"{"captured":{"boot_id":"0B5F3E0C-8F1A-4D2B-A7C1-5E6F7A8B9C0D","monotonic_ns":86400000000123,"wall_clock_ns":1795334401250123456,"wall_clock_synchronized":true},"id":"6F1C4E0A-2D55-4C8B-9E0D-3B7A1F2E4C5D","measurement":{"bpm":78,"contact":"detected","energy_expended_kj":12,"rr_intervals":[722,712]},"patient_id":"40006","sensor":"F0:1D:2E:3C:4B:5A"}"#
        )
    }

    @Test("exposes the wall clock as a Date to the millisecond")
    func wallClockDate() {
        #expect(Self.sample.captured.wallClock.timeIntervalSince1970 == 1_795_334_401.250123456)
    }
}
