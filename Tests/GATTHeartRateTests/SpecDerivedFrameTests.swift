import GATTHeartRate
import Testing

@Suite("Frames built from the Heart Rate Service specification")
struct SpecDerivedFrameTests {
    /// Every combination of the defined flag bits (format, contact, energy, RR) and of the
    /// reserved bits 5–7.
    static let allFlagBytes = Array(UInt8.min ... UInt8.max)

    @Test(
        "decodes a frame for every flags byte to the fields the flags announce",
        arguments: allFlagBytes)
    func decodesEveryFlagCombination(flags: UInt8) throws {
        let bpm: UInt16 = flags & 0x01 != 0 ? 0x01C2 : 0xC2
        let energy: UInt16? = flags & 0x08 != 0 ? 0x1234 : nil
        let rr: [UInt16] = flags & 0x10 != 0 ? [0x0400, 0x03FF] : []
        let frame = FrameBuilder.frame(flags: flags, bpm: bpm, energy: energy, rr: rr)

        let decoded = try HeartRateMeasurement.decode(frame)

        let expectedContact: SensorContact =
            switch (flags >> 1) & 0b11 {
            case 0b10: .notDetected
            case 0b11: .detected
            default: .notSupported
            }
        #expect(
            decoded.value
                == HeartRateMeasurement(
                    bpm: bpm, contact: expectedContact, energyExpended: energy, rrIntervals: rr))
        #expect(decoded.ignoredTrailingBytes == 0)
    }

    @Test("reads 8-bit rates of 128 and above as unsigned", arguments: [128, 200, 255] as [UInt8])
    func readsUInt8RateUnsigned(rate: UInt8) throws {
        #expect(try HeartRateMeasurement.decode([0x00, rate]).value.bpm == UInt16(rate))
    }

    @Test(
        "reads 16-bit rates little-endian, up to 0xFFFF",
        arguments: [0, 1, 0x00FF, 0x0100, 0x01F4, 0x7FFF, 0x8000, 0xFFFF] as [UInt16])
    func readsUInt16Rate(rate: UInt16) throws {
        let frame = FrameBuilder.frame(flags: 0x01, bpm: rate)
        #expect(frame.count == 3)
        #expect(try HeartRateMeasurement.decode(frame).value.bpm == rate)
    }

    @Test("reads energy expended at 0 and at the saturated 0xFFFF", arguments: [0, 0xFFFF] as [UInt16])
    func readsEnergyBounds(energy: UInt16) throws {
        let frame = FrameBuilder.frame(flags: 0x08, bpm: 70, energy: energy)
        #expect(try HeartRateMeasurement.decode(frame).value.energyExpended == energy)
    }

    @Test("reads energy expended together with a 16-bit rate and RR intervals")
    func readsEnergyWithUInt16RateAndRR() throws {
        let frame: [UInt8] = [0x19, 0x2C, 0x01, 0x10, 0x27, 0x00, 0x04]
        let decoded = try HeartRateMeasurement.decode(frame)
        #expect(
            decoded.value
                == HeartRateMeasurement(
                    bpm: 300, contact: .notSupported, energyExpended: 10_000, rrIntervals: [1024]))
    }

    @Test("reads one RR interval and nine, the most that fit in an ATT_MTU of 23", arguments: [1, 9])
    func readsRRCounts(count: Int) throws {
        let rr = (0 ..< count).map { UInt16(600 + 37 * $0) }
        let frame = FrameBuilder.frame(flags: 0x10, bpm: 80, rr: rr)
        #expect(try HeartRateMeasurement.decode(frame).value.rrIntervals == rr)
    }

    @Test("reads more RR intervals than fit in the default MTU, without a hard-coded maximum")
    func readsManyRRIntervals() throws {
        let rr = (0 ..< 200).map { UInt16($0 * 300) }
        let frame = FrameBuilder.frame(flags: 0x10, bpm: 80, rr: rr)
        #expect(try HeartRateMeasurement.decode(frame).value.rrIntervals == rr)
    }

    @Test("ignores reserved flag bits 5–7")
    func ignoresReservedFlagBits() throws {
        let plain = try HeartRateMeasurement.decode([0x16, 0x34, 0xE4, 0x04])
        let reserved = try HeartRateMeasurement.decode([0xF6, 0x34, 0xE4, 0x04])
        #expect(plain == reserved)
    }

    @Test("tolerates and counts one stray byte after whole RR intervals")
    func countsStrayByteAfterRR() throws {
        let decoded = try HeartRateMeasurement.decode([0x10, 0x48, 0x00, 0x03, 0x00, 0x03, 0x7F])
        #expect(decoded.value.rrIntervals == [768, 768])
        #expect(decoded.ignoredTrailingBytes == 1)
    }

    @Test("counts bytes after the last field when no RR intervals are announced")
    func countsBytesAfterLastField() throws {
        let decoded = try HeartRateMeasurement.decode([0x08, 0x48, 0x10, 0x00, 0xAA, 0xBB])
        #expect(decoded.value == HeartRateMeasurement(bpm: 72, energyExpended: 16))
        #expect(decoded.ignoredTrailingBytes == 2)
    }

    @Test("marks rate 0 without skin contact as the strap's no-reading, and nothing else")
    func recognisesNoReading() throws {
        #expect(try HeartRateMeasurement.decode([0x04, 0x00]).value.isNoReading)
        #expect(try !HeartRateMeasurement.decode([0x06, 0x00]).value.isNoReading)
        #expect(try !HeartRateMeasurement.decode([0x04, 0x3C]).value.isNoReading)
        #expect(try !HeartRateMeasurement.decode([0x00, 0x00]).value.isNoReading)
    }

    @Test("encodes rates above 255 as uint16 and can force uint16 for any rate")
    func encodesRateWidth() {
        #expect(HeartRateMeasurement(bpm: 255).encoded() == [0x00, 0xFF])
        #expect(HeartRateMeasurement(bpm: 256).encoded() == [0x01, 0x00, 0x01])
        #expect(HeartRateMeasurement(bpm: 60).encoded(forceUInt16: true) == [0x01, 0x3C, 0x00])
    }

    @Test("encodes each contact state in flag bits 1–2")
    func encodesContact() {
        #expect(HeartRateMeasurement(bpm: 60, contact: .notSupported).encoded()[0] == 0x00)
        #expect(HeartRateMeasurement(bpm: 60, contact: .notDetected).encoded()[0] == 0x04)
        #expect(HeartRateMeasurement(bpm: 60, contact: .detected).encoded()[0] == 0x06)
    }
}
