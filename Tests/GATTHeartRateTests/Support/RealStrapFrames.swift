import GATTHeartRate

/// Frames captured from real straps, with the values the decoder must produce
/// (docs: ble-heart-rate.md §1, "Real frames").
struct RealStrapFrame: Sendable, CustomStringConvertible {
    let bytes: [UInt8]
    let expected: HeartRateMeasurement
    let ignoredTrailingBytes: Int
    let source: String

    var description: String { source }

    static let all: [RealStrapFrame] = [
        RealStrapFrame(
            bytes: [0x10, 0x4E, 0xD2, 0x02, 0xC8, 0x02],
            expected: HeartRateMeasurement(bpm: 78, contact: .notSupported, rrIntervals: [722, 712]),
            ignoredTrailingBytes: 0, source: "Polar H7 (78 bpm)"),
        RealStrapFrame(
            bytes: [0x10, 0x51, 0x00, 0x03, 0x12, 0x03],
            expected: HeartRateMeasurement(bpm: 81, contact: .notSupported, rrIntervals: [768, 786]),
            ignoredTrailingBytes: 0, source: "Polar H7 (81 bpm)"),
        RealStrapFrame(
            bytes: [0x16, 0x34, 0xE4, 0x04],
            expected: HeartRateMeasurement(bpm: 52, contact: .detected, rrIntervals: [1252]),
            ignoredTrailingBytes: 0, source: "unbranded strap via gatttool"),
        RealStrapFrame(
            bytes: [0x10, 0x3B, 0x53, 0x04],
            expected: HeartRateMeasurement(bpm: 59, contact: .notSupported, rrIntervals: [1107]),
            ignoredTrailingBytes: 0, source: "Polar H10"),
        RealStrapFrame(
            bytes: [0x10, 0x3E, 0xB1, 0x03, 0xDE],
            expected: HeartRateMeasurement(bpm: 62, contact: .notSupported, rrIntervals: [945]),
            ignoredTrailingBytes: 1, source: "Web Bluetooth report, stray trailing byte"),
    ]
}
