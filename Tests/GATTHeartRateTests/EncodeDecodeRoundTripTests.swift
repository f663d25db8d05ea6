import GATTHeartRate
import PropertyBased
import Testing

@Suite("Encode → decode round trip")
struct EncodeDecodeRoundTripTests {
    static let measurements = zip(
        Gen.uint16(in: 0 ... UInt16.max),
        Gen<SensorContact>.case,
        Gen.uint16(in: 0 ... UInt16.max).optional(valueRate: 0.5),
        Gen.uint16(in: 0 ... UInt16.max).array(of: 0 ... 40)
    ).map { bpm, contact, energy, rr in
        HeartRateMeasurement(bpm: bpm, contact: contact, energyExpended: energy, rrIntervals: rr)
    }

    @Test("decoding an encoded measurement gives it back, in either rate width")
    func roundTrip() async {
        await propertyCheck(count: 2_000, input: Self.measurements, Gen.bool) { measurement, wide in
            let frame = measurement.encoded(forceUInt16: wide)
            let decoded = try HeartRateMeasurement.decode(frame)
            #expect(decoded.value == measurement)
            #expect(decoded.ignoredTrailingBytes == 0)
        }
    }

    @Test("reserved flag bits and one stray trailing byte after RR intervals change nothing but the count")
    func roundTripWithNoise() async {
        let nonEmptyRR = Self.measurements.filter { !$0.rrIntervals.isEmpty }
        await propertyCheck(
            count: 1_000, input: nonEmptyRR, Gen.uint8(in: 0 ... 7), Gen.uint8(in: 0 ... 255)
        ) { measurement, reserved, stray in
            var frame = measurement.encoded()
            frame[0] |= reserved << 5
            frame.append(stray)
            let decoded = try HeartRateMeasurement.decode(frame)
            #expect(decoded.value == measurement)
            #expect(decoded.ignoredTrailingBytes == 1)
        }
    }
}
