import GATTHeartRate
import Testing

@Suite("Frames captured from real straps")
struct RealStrapFrameTests {
    @Test(
        "decodes every real strap frame from the documentation to its documented values",
        arguments: RealStrapFrame.all)
    func decodesRealFrame(_ frame: RealStrapFrame) throws {
        let decoded = try HeartRateMeasurement.decode(frame.bytes)
        #expect(decoded.value == frame.expected)
        #expect(decoded.ignoredTrailingBytes == frame.ignoredTrailingBytes)
    }

    @Test("converts the Polar H7 RR intervals to the documented milliseconds")
    func convertsRRToMilliseconds() throws {
        let decoded = try HeartRateMeasurement.decode([0x10, 0x4E, 0xD2, 0x02, 0xC8, 0x02])
        #expect(decoded.value.rrMilliseconds == [705.078125, 695.3125])
    }

    @Test(
        "re-encodes each real frame to its bytes, less any stray trailing byte",
        arguments: RealStrapFrame.all)
    func reencodesRealFrame(_ frame: RealStrapFrame) throws {
        let decoded = try HeartRateMeasurement.decode(frame.bytes)
        #expect(decoded.value.encoded() == Array(frame.bytes.dropLast(frame.ignoredTrailingBytes)))
    }
}
