/// A battery charge in percent (Battery Level, 0x2A19).
public struct BatteryLevel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 0 to 100.
    public let percent: UInt8

    /// A level, or `nil` above 100 %.
    public init?(percent: UInt8) {
        guard percent <= 100 else { return nil }
        self.percent = percent
    }

    /// `90 %`.
    public var description: String { "\(percent) %" }

    /// Decodes a 0x2A19 value. A byte above 100 is reported as `frame.out-of-range-battery-level`
    /// with the value, because a percentage over 100 means the strap's reading cannot be trusted.
    @inlinable
    public static func decode(
        _ value: some Collection<UInt8>
    ) throws(FrameDecodingError) -> DecodedValue<BatteryLevel> {
        try withContiguousFrame(value, decode(bytes:))
    }

    @usableFromInline
    static func decode(bytes: UnsafeBufferPointer<UInt8>) throws(FrameDecodingError) -> DecodedValue<Self> {
        try ByteReader.decode(bytes, as: .batteryLevel) { reader throws(FrameDecodingError) in
            let raw = try reader.uint8(.batteryLevel)
            guard let level = BatteryLevel(percent: raw) else {
                throw reader.outOfRange(.batteryLevel, width: 1, value: Int(raw))
            }
            return level
        }
    }

    /// The byte a battery service would send.
    public var encoded: [UInt8] { [percent] }
}
