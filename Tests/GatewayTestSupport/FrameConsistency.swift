import GATTHeartRate

/// The check that shows the decoder never misreads: a frame that decodes must re-encode to its
/// own bytes, once the things the decoder may forget are normalised (reserved flag bits,
/// contact `0b01` ≡ `0b00`, and the trailing bytes it reported as ignored).
package enum FrameConsistency {
    /// `nil` when `decoded` is faithful to `frame`, else a sentence saying how it differs.
    package static func mismatch(
        frame: [UInt8], decoded: DecodedValue<HeartRateMeasurement>
    ) -> String? {
        var expected = Array(frame.dropLast(decoded.ignoredTrailingBytes))
        expected[0] &= 0x1F
        if expected[0] & 0b110 == 0b010 { expected[0] &= ~0b110 }
        let reencoded = decoded.value.encoded(forceUInt16: frame[0] & 0x01 != 0)
        guard reencoded != expected else { return nil }
        return "\(frame) decoded to \(decoded) which re-encodes to \(reencoded), not \(expected)"
    }
}
