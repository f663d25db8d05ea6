/// Builds a little-endian byte string field by field: the writing half of the stored-sample
/// format (`HeartRateSample.binaryEncoded()`), whose reading half is `SampleFieldReader`.
struct ByteWriter {
    /// Everything written so far.
    private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes, so a sample is written without regrowing.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `value` in little-endian byte order, in exactly its own width.
    mutating func integer(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `raw` as it is.
    mutating func append(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends the length of `raw`, in one byte or (`wide`) two, and then `raw`; a field longer
    /// than that length can say cannot be written.
    mutating func lengthPrefixed(
        _ raw: [UInt8], _ field: SampleDecodingError.Field, wide: Bool
    ) throws(SampleEncodingError) {
        guard raw.count <= (wide ? Int(UInt16.max) : Int(UInt8.max)) else {
            throw SampleEncodingError(field: field, byteCount: raw.count, limit: wide ? Int(UInt16.max) : Int(UInt8.max))
        }
        if wide { integer(UInt16(raw.count)) } else { integer(UInt8(raw.count)) }
        append(raw)
    }
}
