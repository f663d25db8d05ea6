/// Reads little-endian fields from a characteristic value, failing with a precise
/// `FrameDecodingError` instead of reading past the end.
struct ByteReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let characteristic: BluetoothUUID
    /// Offset of the next unread byte.
    private(set) var offset = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, characteristic: BluetoothUUID) {
        self.bytes = bytes
        self.characteristic = characteristic
    }

    /// Bytes not yet read.
    var remaining: Int { bytes.count - offset }

    /// Reads one byte for `field`.
    mutating func uint8(_ field: FrameDecodingError.Field) throws(FrameDecodingError) -> UInt8 {
        try require(1, for: field)
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a little-endian `uint16` for `field`.
    mutating func uint16(_ field: FrameDecodingError.Field) throws(FrameDecodingError) -> UInt16 {
        try require(2, for: field)
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// Fails with a truncation of `field` unless `count` more bytes are present.
    func require(_ count: Int, for field: FrameDecodingError.Field) throws(FrameDecodingError) {
        guard remaining < count else { return }
        throw .truncated(
            characteristic, field: field, offset: offset, missingBytes: count - remaining,
            valueLength: bytes.count)
    }

    /// A value complete but not allowed, at the field that was just read (`width` bytes).
    func outOfRange(_ field: FrameDecodingError.Field, width: Int, value: Int) -> FrameDecodingError {
        .outOfRange(
            characteristic, field: field, offset: offset - width, value: value, valueLength: bytes.count)
    }

    /// Runs `body` over `frame` and counts whatever it left unread as ignored trailing bytes.
    static func decode<Value>(
        _ frame: some Collection<UInt8>,
        as characteristic: BluetoothUUID,
        _ body: (inout ByteReader) throws(FrameDecodingError) -> Value
    ) throws(FrameDecodingError) -> DecodedValue<Value> {
        func run(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<DecodedValue<Value>, FrameDecodingError> {
            var reader = ByteReader(buffer, characteristic: characteristic)
            return Result { () throws(FrameDecodingError) in
                let value = try body(&reader)
                return DecodedValue(value, ignoredTrailingBytes: reader.remaining)
            }
        }
        let result = frame.withContiguousStorageIfAvailable(run)
            ?? Array(frame).withUnsafeBufferPointer(run)
        return try result.get()
    }
}
