/// The 0x2A37 wire format (Heart Rate Service 1.0, §3.1), little-endian:
/// flags, heart rate (uint8 or uint16), energy expended (uint16, if flagged),
/// RR intervals (uint16 each, if flagged, filling the rest of the value).
extension HeartRateMeasurement {
    /// Flag bits of byte 0. Bits 1–2 (contact) belong to `SensorContact`; bits 5–7 are reserved
    /// and ignored, as the specification asks, so a future flag does not break old gateways.
    enum Flag {
        static let uint16Value: UInt8 = 0x01
        static let energyExpendedPresent: UInt8 = 0x08
        static let rrIntervalsPresent: UInt8 = 0x10
    }

    /// Decodes one notification.
    ///
    /// Total: any byte string either decodes or throws a `FrameDecodingError` naming the
    /// truncated field. With the RR flag set the value must hold at least one whole RR interval;
    /// a stray odd byte after the whole intervals is dropped and counted in
    /// `ignoredTrailingBytes`, as are bytes after the last field when the RR flag is clear
    /// (room for fields a later revision may announce with a reserved flag bit).
    @inlinable
    public static func decode(
        _ frame: some Collection<UInt8>
    ) throws(FrameDecodingError) -> DecodedValue<HeartRateMeasurement> {
        try withContiguousFrame(frame, decode(bytes:))
    }

    @usableFromInline
    static func decode(bytes: UnsafeBufferPointer<UInt8>) throws(FrameDecodingError) -> DecodedValue<Self> {
        try ByteReader.decode(bytes, as: .heartRateMeasurement) { reader throws(FrameDecodingError) in
            let flags = try reader.uint8(.flags)
            let bpm =
                flags & Flag.uint16Value != 0
                ? try reader.uint16(.heartRateUInt16)
                : UInt16(try reader.uint8(.heartRateUInt8))
            let energy =
                flags & Flag.energyExpendedPresent != 0
                ? try reader.uint16(.energyExpended)
                : nil
            var rrIntervals: [UInt16] = []
            if flags & Flag.rrIntervalsPresent != 0 {
                try reader.require(2, for: .rrInterval)
                rrIntervals.reserveCapacity(reader.remaining / 2)
                while reader.remaining >= 2 {
                    rrIntervals.append(try reader.uint16(.rrInterval))
                }
            }
            return HeartRateMeasurement(
                bpm: bpm, contact: SensorContact(flags: flags),
                energyExpended: energy, rrIntervals: rrIntervals)
        }
    }

    /// The notification a strap would send for this measurement.
    ///
    /// The rate goes out as uint8 when it fits, unless `forceUInt16` asks for the 16-bit form
    /// (which some straps always use). Reserved flag bits are zero.
    public func encoded(forceUInt16: Bool = false) -> [UInt8] {
        let wide = forceUInt16 || bpm > UInt16(UInt8.max)
        var flags = contact.flagBits
        if wide { flags |= Flag.uint16Value }
        if energyExpended != nil { flags |= Flag.energyExpendedPresent }
        if !rrIntervals.isEmpty { flags |= Flag.rrIntervalsPresent }

        var bytes: [UInt8] = [flags]
        bytes.reserveCapacity(5 + 2 * rrIntervals.count)
        if wide { bytes.appendLittleEndian(bpm) } else { bytes.append(UInt8(bpm)) }
        if let energyExpended { bytes.appendLittleEndian(energyExpended) }
        for interval in rrIntervals { bytes.appendLittleEndian(interval) }
        return bytes
    }
}

extension [UInt8] {
    mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }
}
