import GATTHeartRate
import Testing

@Suite("Body Sensor Location (0x2A38)")
struct BodySensorLocationTests {
    @Test(
        "names each defined location",
        arguments: zip(0 ... 6 as ClosedRange<UInt8>, ["other", "chest", "wrist", "finger", "hand", "ear-lobe", "foot"]))
    func namesDefinedLocations(raw: UInt8, name: String) throws {
        let decoded = try BodySensorLocation.decode([raw])
        #expect(decoded.value.description == name)
        #expect(decoded.value.rawValue == raw)
    }

    @Test("keeps reserved values as reserved(n) instead of rejecting them", arguments: [7, 100, 255] as [UInt8])
    func keepsReservedValues(raw: UInt8) throws {
        let decoded = try BodySensorLocation.decode([raw])
        #expect(decoded.value == .reserved(raw))
        #expect(decoded.value.description == "reserved(\(raw))")
        #expect(decoded.value.rawValue == raw)
    }

    @Test("rejects an empty value as truncated")
    func rejectsEmpty() {
        let error = #expect(throws: FrameDecodingError.self) { try BodySensorLocation.decode([]) }
        #expect(error?.code == "frame.truncated-body-sensor-location")
        #expect(error?.missingBytes == 1)
    }

    @Test("counts bytes after the location")
    func countsTrailingBytes() throws {
        let decoded = try BodySensorLocation.decode([0x01, 0x00, 0x00])
        #expect(decoded == DecodedValue(.chest, ignoredTrailingBytes: 2))
    }
}
