import GATTHeartRate
import Testing

@Suite("Battery Level (0x2A19)")
struct BatteryLevelTests {
    @Test("decodes every percentage from 0 to 100")
    func decodesPercentages() throws {
        for percent in UInt8(0) ... 100 {
            #expect(try BatteryLevel.decode([percent]).value.percent == percent)
        }
    }

    @Test("reports values above 100 as out of range, with the value", arguments: [101, 200, 255] as [UInt8])
    func reportsOutOfRange(raw: UInt8) {
        let error = #expect(throws: FrameDecodingError.self) { try BatteryLevel.decode([raw]) }
        #expect(error?.kind == .outOfRange)
        #expect(error?.code == "frame.out-of-range-battery-level")
        #expect(error?.value == Int(raw))
        #expect(error?.description.contains("is \(raw)") == true)
    }

    @Test("rejects an empty value as truncated")
    func rejectsEmpty() {
        let error = #expect(throws: FrameDecodingError.self) { try BatteryLevel.decode([]) }
        #expect(error?.code == "frame.truncated-battery-level")
    }

    @Test("encodes to the byte it decodes from")
    func encodes() throws {
        #expect(try BatteryLevel.decode([90]).value.encoded == [90])
    }
}
