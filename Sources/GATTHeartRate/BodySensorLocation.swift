/// Where a strap sits on the body (Body Sensor Location, 0x2A38).
///
/// Values the specification reserves are kept as `.reserved(n)` rather than rejected, so a
/// newer device still reports something a technician can look up.
public enum BodySensorLocation: Sendable, Hashable, CustomStringConvertible {
    case other
    case chest
    case wrist
    case finger
    case hand
    case earLobe
    case foot
    /// A value the specification reserves for future use.
    case reserved(UInt8)

    /// The location a raw byte names.
    public init(rawValue: UInt8) {
        self =
            switch rawValue {
            case 0: .other
            case 1: .chest
            case 2: .wrist
            case 3: .finger
            case 4: .hand
            case 5: .earLobe
            case 6: .foot
            default: .reserved(rawValue)
            }
    }

    /// The byte on the wire.
    public var rawValue: UInt8 {
        switch self {
        case .other: 0
        case .chest: 1
        case .wrist: 2
        case .finger: 3
        case .hand: 4
        case .earLobe: 5
        case .foot: 6
        case .reserved(let value): value
        }
    }

    /// Stable names for output: `chest`, `ear-lobe`, `reserved(7)` …
    public var description: String {
        switch self {
        case .other: "other"
        case .chest: "chest"
        case .wrist: "wrist"
        case .finger: "finger"
        case .hand: "hand"
        case .earLobe: "ear-lobe"
        case .foot: "foot"
        case .reserved(let value): "reserved(\(value))"
        }
    }

    /// Decodes a 0x2A38 value: one byte; bytes after it are ignored and counted.
    @inlinable
    public static func decode(
        _ value: some Collection<UInt8>
    ) throws(FrameDecodingError) -> DecodedValue<BodySensorLocation> {
        try withContiguousFrame(value, decode(bytes:))
    }

    @usableFromInline
    static func decode(bytes: UnsafeBufferPointer<UInt8>) throws(FrameDecodingError) -> DecodedValue<Self> {
        try ByteReader.decode(bytes, as: .bodySensorLocation) { reader throws(FrameDecodingError) in
            BodySensorLocation(rawValue: try reader.uint8(.bodySensorLocation))
        }
    }
}
