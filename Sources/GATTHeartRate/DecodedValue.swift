/// A decoded characteristic value and how many bytes past its last field were dropped.
///
/// Real straps have been seen appending one stray byte after their RR intervals; such frames
/// still carry good data, so they decode, and the count of ignored bytes is kept for counters
/// and for the `ignored_trailing_bytes` field a technician sees.
public struct DecodedValue<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The decoded value.
    public let value: Value
    /// Bytes after the last field the specification defines, which were not interpreted.
    public let ignoredTrailingBytes: Int

    /// Pairs a value with the count of bytes the decoder skipped.
    public init(_ value: Value, ignoredTrailingBytes: Int = 0) {
        self.value = value
        self.ignoredTrailingBytes = ignoredTrailingBytes
    }
}
