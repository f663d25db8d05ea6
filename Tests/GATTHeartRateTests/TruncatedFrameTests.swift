import GATTHeartRate
import Testing

@Suite("Truncated frames")
struct TruncatedFrameTests {
    /// One field of a frame layout: where it starts, where it ends, what it is called.
    private struct FieldSpan {
        let field: FrameDecodingError.Field
        let range: Range<Int>
    }

    /// The fields a frame's flags require before any optional second RR interval.
    private static func requiredFields(flags: UInt8) -> [FieldSpan] {
        var spans = [FieldSpan(field: .flags, range: 0 ..< 1)]
        let wide = flags & 0x01 != 0
        spans.append(FieldSpan(field: wide ? .heartRateUInt16 : .heartRateUInt8, range: 1 ..< (wide ? 3 : 2)))
        if flags & 0x08 != 0 {
            let start = spans.last!.range.upperBound
            spans.append(FieldSpan(field: .energyExpended, range: start ..< start + 2))
        }
        if flags & 0x10 != 0 {
            let start = spans.last!.range.upperBound
            spans.append(FieldSpan(field: .rrInterval, range: start ..< start + 2))
        }
        return spans
    }

    @Test(
        "rejects every strict prefix that cuts a required field, and decodes every other one to the frame's leading RR intervals",
        arguments: ValidFrames.all)
    func everyStrictPrefix(frame: [UInt8]) throws {
        let full = try HeartRateMeasurement.decode(frame)
        let spans = Self.requiredFields(flags: frame[0])
        let headerLength = spans.last { $0.field != .rrInterval }!.range.upperBound

        for length in 0 ..< frame.count {
            let prefix = Array(frame.prefix(length))
            if let cut = spans.first(where: { $0.range.upperBound > length }) {
                let error = #expect(throws: FrameDecodingError.self) {
                    try HeartRateMeasurement.decode(prefix)
                }
                #expect(error?.kind == .truncated)
                #expect(error?.field == cut.field)
                #expect(error?.offset == cut.range.lowerBound)
                #expect(error?.missingBytes == cut.range.upperBound - length)
                #expect(error?.valueLength == length)
            } else {
                let decoded = try HeartRateMeasurement.decode(prefix)
                let rrBytes = length - headerLength
                var expected = full.value
                expected.rrIntervals = Array(full.value.rrIntervals.prefix(rrBytes / 2))
                #expect(decoded.value == expected, "prefix of \(length) bytes")
                #expect(decoded.ignoredTrailingBytes == rrBytes % 2)
            }
        }
    }

    @Test("says which field is truncated and how many bytes are missing")
    func messageNamesFieldAndMissingBytes() {
        let error = #expect(throws: FrameDecodingError.self) {
            try HeartRateMeasurement.decode([0x10, 0x4E])
        }
        #expect(error?.code == "frame.truncated-rr-interval")
        #expect(
            error?.description
                == "Heart Rate Measurement (0x2A37) truncated: 2 bytes missing for the first RR interval (flag bit 4 set) at offset 2; the value has 2 bytes")
    }

    @Test("gives each truncated field its own stable code")
    func stableCodes() {
        let cases: [([UInt8], String)] = [
            ([], "frame.truncated-flags"),
            ([0x00], "frame.truncated-heart-rate"),
            ([0x01, 0x50], "frame.truncated-heart-rate"),
            ([0x08, 0x50, 0x01], "frame.truncated-energy-expended"),
            ([0x10, 0x50, 0x01], "frame.truncated-rr-interval"),
        ]
        for (frame, code) in cases {
            let error = #expect(throws: FrameDecodingError.self) { try HeartRateMeasurement.decode(frame) }
            #expect(error?.code == code, "frame \(frame)")
        }
    }
}
