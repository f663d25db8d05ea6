import Foundation
import GATTHeartRate
import GatewayTestSupport
import PropertyBased
import Testing

@Suite("HeartRateSample binary form")
struct HeartRateSampleBinaryTests {
    static let uuids = Gen.uint8(in: 0 ... 255).array(of: 16).map { b in
        UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// Patient ids from ASCII to three-byte UTF-8 characters, up to 60 bytes, or none.
    static let patientIDs = Gen.character(in: " " ... "\u{D7FF}").string(of: 0 ... 20).optional(valueRate: 0.7)

    static let captureTimes = zip(Gen.int64(), Gen.bool, Gen.uint64(), uuids).map { wall, synchronized, monotonic, boot in
        CaptureTime(wallClockNanoseconds: wall, wallClockSynchronized: synchronized, monotonicNanoseconds: monotonic, bootID: boot)
    }

    static let samples = zip(
        uuids, Gen.uint8(in: 0 ... 255).array(of: 6), patientIDs, EncodeDecodeRoundTripTests.measurements, captureTimes
    ).map { id, address, patient, measurement, captured in
        HeartRateSample(id: id, sensor: BluetoothAddress(bytes: address)!, patientID: patient, measurement: measurement, captured: captured)
    }

    static let sample = HeartRateSampleCodingTests.sample

    @Test("writes the documented layout byte for byte: 71 bytes where the JSON form takes over 300")
    func goldenBytes() throws {
        let bytes = try Self.sample.binaryEncoded()
        var expected: [UInt8] = [0x01]
        expected += [0x6F, 0x1C, 0x4E, 0x0A, 0x2D, 0x55, 0x4C, 0x8B, 0x9E, 0x0D, 0x3B, 0x7A, 0x1F, 0x2E, 0x4C, 0x5D]
        expected += [0xF0, 0x1D, 0x2E, 0x3C, 0x4B, 0x5A]
        expected += [0x03]
        expected += [0xC0, 0x5E, 0x8D, 0x37, 0x20, 0x4F, 0xEA, 0x18]
        expected += [0x7B, 0x00, 0x4F, 0x91, 0x94, 0x4E, 0x00, 0x00]
        expected += [0x0B, 0x5F, 0x3E, 0x0C, 0x8F, 0x1A, 0x4D, 0x2B, 0xA7, 0xC1, 0x5E, 0x6F, 0x7A, 0x8B, 0x9C, 0x0D]
        expected += [0x05] + Array("40006".utf8)
        expected += [0x08, 0x1E, 78, 12, 0x00, 0xD2, 0x02, 0xC8, 0x02]
        #expect(bytes == expected)
        #expect(try JSONEncoder().encode(Self.sample).count > 300)
    }

    @Test("decoding an encoded sample gives it back exactly")
    func roundTrip() async {
        await propertyCheck(count: 2_000, input: Self.samples) { sample throws in
            #expect(try HeartRateSample(binary: sample.binaryEncoded()) == sample)
        }
    }

    @Test("rejects every strict prefix of an encoded sample as truncated, and any appended byte as trailing")
    func everyPrefixRejected() async {
        await propertyCheck(count: 300, input: Self.samples, Gen.uint8(in: 0 ... 255)) { sample, extra in
            let bytes = try sample.binaryEncoded()
            for length in 0 ..< bytes.count {
                let error = #expect(throws: SampleDecodingError.self) { try HeartRateSample(binary: bytes.prefix(length)) }
                #expect(error?.kind == .truncated, "prefix of \(length) of \(bytes.count) bytes")
            }
            let error = #expect(throws: SampleDecodingError.self) { try HeartRateSample(binary: bytes + [extra]) }
            #expect(error?.code == "sample.trailing-bytes")
        }
    }

    @Test("random byte strings and damaged samples never trap; whatever decodes re-encodes to its own bytes")
    func randomBytes() throws {
        let seed: UInt64 = 0x5EED_B1A5
        var rng = SplitMix64(seed: seed)
        var long = Self.sample
        long.measurement.rrIntervals = Array(repeating: 700, count: 130)
        let valid = [try Self.sample.binaryEncoded(), try long.binaryEncoded(), Self.needlesslyWide]
        var decoded = 0
        var kinds: Set<SampleDecodingError.Kind> = []
        for round in 0 ..< 300_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0 ..< Int.random(in: 0 ... 90, using: &rng)).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
                if !bytes.isEmpty && round % 4 == 0 { bytes[0] = round % 8 == 0 ? HeartRateSample.binaryFormat : HeartRateSample.wideBinaryFormat }
            } else {
                bytes = valid[(round / 2) % valid.count]
                for _ in 0 ..< Int.random(in: 1 ... 3, using: &rng) {
                    bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
                }
            }
            let sample: HeartRateSample
            do {
                sample = try HeartRateSample(binary: bytes)
            } catch {
                kinds.insert(error.kind)
                continue
            }
            decoded += 1
            guard try sample.binaryEncoded() == bytes else {
                Issue.record("seed \(seed), round \(round): \(bytes) decodes but does not re-encode to itself")
                return
            }
        }
        #expect(decoded > 10_000, "damaged samples whose damage hits a free field still decode")
        #expect(kinds == Set(SampleDecodingError.Kind.allCases), "the mix reaches every kind of failure")
    }

    @Test("names each failure with a stable code, the field and the offset")
    func specificErrors() throws {
        let valid = try Self.sample.binaryEncoded()
        func failure(_ bytes: [UInt8]) -> SampleDecodingError? {
            return #expect(throws: SampleDecodingError.self) { try HeartRateSample(binary: bytes) }
        }
        let json = failure(Array(try JSONEncoder().encode(Self.sample)))
        #expect(json?.code == "sample.unknown-format")
        #expect(json?.description.hasSuffix("format byte 123; this build reads formats 1 and 2") == true)

        var flags = valid
        flags[23] |= 0x04
        #expect(failure(flags)?.code == "sample.reserved-flags")

        var utf8 = valid
        utf8[58] = 0xC3
        #expect(failure(utf8).map { [$0.code, "\($0.offset)"] } == ["sample.invalid-utf8-patient-id", "57"])

        var reservedBits = valid
        reservedBits[63] |= 0x20
        #expect(failure(reservedBits).map { [$0.code, "\($0.offset)"] } == ["sample.invalid-measurement", "63"])

        let shortFrame = Array(valid.prefix(62)) + [0x02, 0x10, 0x4E]
        let frameError = failure(shortFrame)
        #expect(frameError?.code == "sample.invalid-measurement")
        #expect(frameError?.detail.contains("first RR interval") == true)

        let cut = failure(Array(valid.prefix(45)))
        #expect(cut?.code == "sample.truncated-boot-id")
        #expect(cut?.description == "45-byte stored sample: truncated at offset 40 (boot id): 11 of its 16 bytes missing")
    }

    @Test("a field over 255 bytes switches the sample to format 2, which holds it; up to 65,535 bytes and no further")
    func longFields() throws {
        var sample = Self.sample
        sample.measurement.rrIntervals = Array(repeating: 700, count: 126)
        let wide = try sample.binaryEncoded()
        #expect(wide.first == HeartRateSample.wideBinaryFormat)
        #expect(wide.count == 56 + (2 + 5) + (2 + 256))
        #expect(try HeartRateSample(binary: wide) == sample)

        sample.measurement.rrIntervals.removeLast()
        #expect(try sample.binaryEncoded().first == HeartRateSample.binaryFormat, "a 254-byte value still fits format 1")

        sample.patientID = String(repeating: "é", count: 32_768)
        let error = #expect(throws: SampleEncodingError.self) { try sample.binaryEncoded() }
        #expect(error?.code == "sample.too-long-patient-id")
        #expect(error?.description.hasSuffix("is 65536 bytes long; the stored format allows at most 65535") == true)
    }

    @Test("every 0x2A37 value up to the ATT maximum of 512 bytes decodes, is stored and reads back")
    func everyFrameLength() throws {
        for length in 2 ... 512 {
            let rrBytes = length - 2
            let frame: [UInt8] = [rrBytes >= 2 ? 0x10 : 0x00, 72] + (0 ..< rrBytes).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            let decoded = try HeartRateMeasurement.decode(frame[...])
            #expect(decoded.value.rrIntervals.count == rrBytes / 2)
            var sample = Self.sample
            sample.measurement = decoded.value
            let stored = try sample.binaryEncoded()
            #expect(stored.first == (length - decoded.ignoredTrailingBytes > 255 ? HeartRateSample.wideBinaryFormat : HeartRateSample.binaryFormat))
            #expect(try HeartRateSample(binary: stored) == sample, "a \(length)-byte value")
        }
    }

    /// `sample` written in format 2, which the encoder never does for it.
    static let needlesslyWide: [UInt8] = {
        var bytes = try! sample.binaryEncoded()
        bytes[0] = HeartRateSample.wideBinaryFormat
        bytes.insert(0x00, at: 57)  // the patient id's length, 5, in two bytes
        bytes.insert(0x00, at: 64)  // the measurement's length, 8, in two bytes
        return bytes
    }()

    @Test("format 2 holding only fields that fit format 1 is refused, so no sample has two stored forms")
    func needlessWideForm() throws {
        let error = #expect(throws: SampleDecodingError.self) { try HeartRateSample(binary: Self.needlesslyWide) }
        #expect(error?.code == "sample.needless-wide-form")
    }
}
