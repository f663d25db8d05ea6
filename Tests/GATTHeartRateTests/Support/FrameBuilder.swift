/// Spells out a Heart Rate Measurement frame byte by byte, as the specification lays it out,
/// independently of the encoder under test.
enum FrameBuilder {
    static func littleEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    /// A frame from a flags byte and the fields the flags announce.
    static func frame(flags: UInt8, bpm: UInt16, energy: UInt16? = nil, rr: [UInt16] = []) -> [UInt8] {
        var bytes = [flags]
        bytes += flags & 0x01 != 0 ? littleEndian(bpm) : [UInt8(bpm)]
        if let energy { bytes += littleEndian(energy) }
        for interval in rr { bytes += littleEndian(interval) }
        return bytes
    }
}
