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

    /// Runs `body` over `bytes` and counts whatever it left unread as ignored trailing bytes.
    static func decode<Value>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        as characteristic: BluetoothUUID,
        _ body: (inout ByteReader) throws(FrameDecodingError) -> Value
    ) throws(FrameDecodingError) -> DecodedValue<Value> {
        var reader = ByteReader(bytes, characteristic: characteristic)
        let value = try body(&reader)
        return DecodedValue(value, ignoredTrailingBytes: reader.remaining)
    }
}

/// Calls `body` with the bytes of `frame` in contiguous memory, copying only when the collection
/// has none (an `Array`, `ArraySlice` or `Data` is passed through as it is).
///
/// Inlinable so that each public `decode` is specialised for the caller's collection type
/// instead of going through generic witness tables on every frame.
@inlinable
func withContiguousFrame<Value>(
    _ frame: some Collection<UInt8>,
    _ body: (UnsafeBufferPointer<UInt8>) throws(FrameDecodingError) -> Value
) throws(FrameDecodingError) -> Value {
    func run(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<Value, FrameDecodingError> {
        Result { () throws(FrameDecodingError) in try body(buffer) }
    }
    let result = frame.withContiguousStorageIfAvailable(run) ?? Array(frame).withUnsafeBufferPointer(run)
    return try result.get()
}
