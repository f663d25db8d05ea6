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
        return Value(truncatingIfNeeded: raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// Sixteen bytes in RFC 4122 order, for `field`.
    mutating func uuid(_ field: SampleDecodingError.Field) throws(SampleDecodingError) -> UUID {
        let b = Array(try take(16, field))
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
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
