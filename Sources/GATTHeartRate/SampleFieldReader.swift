#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the fields of a stored sample (`HeartRateSample(binary:)`) front to back, failing with
/// a `SampleDecodingError` that names the field instead of reading past the end.
struct SampleFieldReader {
    private let bytes: [UInt8]
    /// Offset of the next unread byte.
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next `count` bytes, for `field`.
    mutating func take(_ count: Int, _ field: SampleDecodingError.Field) throws(SampleDecodingError) -> ArraySlice<UInt8> {
        let missing = count - (bytes.count - offset)
        guard missing <= 0 else {
            throw failure(.truncated, field, at: offset, "\(missing) of its \(count) bytes missing")
        }
        defer { offset += count }
        return bytes[offset ..< offset + count]
    }

    /// A little-endian integer of `Value`'s width, for `field`.
    mutating func integer<Value: FixedWidthInteger>(
        _: Value.Type, _ field: SampleDecodingError.Field
    ) throws(SampleDecodingError) -> Value {
        let raw = try take(Value.bitWidth / 8, field)
        var value: UInt64 = 0
        for index in stride(from: raw.endIndex - 1, through: raw.startIndex, by: -1) { value = value << 8 | UInt64(raw[index]) }
        return Value(truncatingIfNeeded: value)
    }

    /// Sixteen bytes in RFC 4122 order, for `field`.
    mutating func uuid(_ field: SampleDecodingError.Field) throws(SampleDecodingError) -> UUID {
        let b = try take(16, field)
        let s = b.startIndex
        return UUID(
            uuid: (
                b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7],
                b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15]
            ))
    }

    /// A length of one byte (or two, when `wide`), then that many bytes, for `field`; returns
    /// the bytes and where they start.
    mutating func lengthPrefixed(
        _ field: SampleDecodingError.Field, wide: Bool
    ) throws(SampleDecodingError) -> (bytes: ArraySlice<UInt8>, offset: Int) {
        let length = wide ? Int(try integer(UInt16.self, field)) : Int(try integer(UInt8.self, field))
        let start = offset
        return (try take(length, field), start)
    }

    /// Fails unless every byte was read.
    func finish() throws(SampleDecodingError) {
        guard offset < bytes.count else { return }
        let extra = bytes.count - offset
        throw failure(.trailingBytes, .measurement, at: offset, "\(extra) byte\(extra == 1 ? "" : "s") after the last field")
    }

    /// A failure of `field`, which starts at `offset`.
    func failure(
        _ kind: SampleDecodingError.Kind, _ field: SampleDecodingError.Field, at offset: Int, _ detail: String
    ) -> SampleDecodingError {
        SampleDecodingError(kind: kind, field: field, offset: offset, length: bytes.count, detail: detail)
    }
}
