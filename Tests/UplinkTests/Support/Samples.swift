import Foundation
import GATTHeartRate
import GatewayTestSupport

/// Heart-rate samples for tests: fixed ones and seeded random ones.
enum Samples {
    static let strap = BluetoothAddress("F0:1D:2E:3C:4B:5A")!
    static let bootID = UUID(uuidString: "0c4fdbd5-2f43-4f5c-9a36-6f2b5b1f2a10")!
    /// 2026-11-22T08:00:01.250Z
    static let contractInstant: Int64 = 1_795_334_401_250_000_000

    static func sample(
        id: UUID = UUID(), bpm: UInt16 = 72, contact: SensorContact = .detected, rr: [UInt16] = [],
        at nanoseconds: Int64 = contractInstant, patient: String? = nil, sensor: BluetoothAddress = strap
    ) -> HeartRateSample {
        HeartRateSample(
            id: id, sensor: sensor, patientID: patient,
            measurement: HeartRateMeasurement(bpm: bpm, contact: contact, rrIntervals: rr),
            captured: CaptureTime(
                wallClockNanoseconds: nanoseconds, wallClockSynchronized: true,
                monotonicNanoseconds: UInt64(nanoseconds / 1000), bootID: bootID))
    }

    /// `count` samples one second apart with seeded rates, contacts and RR intervals.
    static func random(count: Int, seed: UInt64, start: Int64 = contractInstant) -> [HeartRateSample] {
        var random = SplitMix64(seed: seed)
        return (0 ..< count).map { index in
            let contact: SensorContact = [.detected, .notSupported, .detected][Int.random(in: 0 ..< 3, using: &random)]
            let rrCount = Int.random(in: 0 ... 3, using: &random)
            return sample(
                id: UUID(uuid: uuidBytes(&random)),
                bpm: UInt16.random(in: 30 ... 230, using: &random), contact: contact,
                rr: (0 ..< rrCount).map { _ in UInt16.random(in: 300 ... 1400, using: &random) },
                at: start + Int64(index) * 1_000_000_000 + Int64.random(in: 0 ..< 1_000_000, using: &random))
        }
    }

    private static func uuidBytes(_ random: inout SplitMix64) -> uuid_t {
        var bytes = (0 ..< 16).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}
