#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The compact binary form of a sample, which the offline queue stores (≈ 70 bytes where the
/// JSON form takes ≈ 320; every byte saved is a byte an SD card does not write).
///
/// Layout, integers little-endian:
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 1 | format: `binaryFormat` (1), or `wideBinaryFormat` (2) when a field needs it |
/// | 1 | 16 | sample id, RFC 4122 byte order |
/// | 17 | 6 | sensor address, most significant byte first (as written) |
/// | 23 | 1 | flags: bit 0 wall clock synchronised, bit 1 patient id present; others zero |
/// | 24 | 8 | wall-clock time, int64 ns since 1970 |
/// | 32 | 8 | monotonic time, uint64 ns since boot |
/// | 40 | 16 | boot id |
/// | 56 | w + n | patient id, if flagged: length, then n bytes of UTF-8 |
/// | … | w + m | measurement: length, then the m-byte 0x2A37 value `encoded()` writes |
///
/// A length takes one byte (w = 1) in format 1, which every real sample fits. A 0x2A37 value
/// longer than 255 bytes is legal (a strap at a large ATT MTU may send up to 512 bytes, some 250
/// RR intervals), and a sample holding one is written in format 2, where each length takes two
/// bytes (w = 2, at most 65,535); format 2 is never written for a sample format 1 can hold.
///
/// Decoding is strict and total: any byte string either gives back the sample or throws a
/// `SampleDecodingError`, and a byte string that decodes is exactly what encoding its sample
/// writes (so a damaged record cannot pass as a slightly different valid one).
extension HeartRateSample {
    /// The first byte of the binary form with one-byte lengths; a later incompatible layout
    /// takes the next free number.
    package static let binaryFormat: UInt8 = 1
    /// The first byte of the binary form with two-byte lengths, for a field over 255 bytes.
    package static let wideBinaryFormat: UInt8 = 2

    /// Bits of the flags byte.
    enum BinaryFlag {
        static let wallClockSynchronized: UInt8 = 0x01
        static let patientIDPresent: UInt8 = 0x02
        static let defined = wallClockSynchronized | patientIDPresent
    }

    /// The sample in the binary form: format 1 when every field fits a one-byte length, format 2
    /// otherwise. Throws only for a field over 65,535 bytes, which no strap can send (an ATT
    /// value is at most 512 bytes) and no configuration accepts as a patient id.
    package func binaryEncoded() throws(SampleEncodingError) -> [UInt8] {
        let patient = patientID.map { Array($0.utf8) }
        let frame = measurement.encoded()
        let wide = max(patient?.count ?? 0, frame.count) > Int(UInt8.max)
        var writer = ByteWriter(capacity: 64 + (patient?.count ?? 0) + frame.count)
        writer.integer(wide ? Self.wideBinaryFormat : Self.binaryFormat)
        withUnsafeBytes(of: id.uuid) { writer.append($0) }
        writer.append(sensor.bytes)
        var flags: UInt8 = captured.wallClockSynchronized ? BinaryFlag.wallClockSynchronized : 0
        if patientID != nil { flags |= BinaryFlag.patientIDPresent }
        writer.integer(flags)
        writer.integer(captured.wallClockNanoseconds)
        writer.integer(captured.monotonicNanoseconds)
        withUnsafeBytes(of: captured.bootID.uuid) { writer.append($0) }
        if let patient { try writer.lengthPrefixed(patient, .patientID, wide: wide) }
        try writer.lengthPrefixed(frame, .measurement, wide: wide)
        return writer.bytes
    }

    /// Decodes the binary form strictly (see the type's layout): unknown format byte, truncation,
    /// reserved flag bits, bad UTF-8, an undecodable or non-canonical measurement, trailing
    /// bytes and format 2 for fields that fit format 1 each throw their own `SampleDecodingError`.
    package init(binary: some Collection<UInt8>) throws(SampleDecodingError) {
        var reader = SampleFieldReader(Array(binary))
        let format = try reader.integer(UInt8.self, .format)
        guard format == Self.binaryFormat || format == Self.wideBinaryFormat else {
            throw reader.failure(
                .unknownFormat, .format, at: 0, "format byte \(format); this build reads formats \(Self.binaryFormat) and \(Self.wideBinaryFormat)")
        }
        let wide = format == Self.wideBinaryFormat
        let id = try reader.uuid(.sampleID)
        // `take` returned exactly six bytes, which is all `BluetoothAddress(bytes:)` checks.
        let sensor = BluetoothAddress(bytes: Array(try reader.take(6, .sensor)))!
        let flagsOffset = reader.offset
        let flags = try reader.integer(UInt8.self, .flags)
        guard flags & ~BinaryFlag.defined == 0 else {
            throw reader.failure(.reservedFlags, .flags, at: flagsOffset, "flags byte \(flags); only bits 0 and 1 are defined")
        }
        let captured = CaptureTime(
            wallClockNanoseconds: try reader.integer(Int64.self, .wallClock),
            wallClockSynchronized: flags & BinaryFlag.wallClockSynchronized != 0,
            monotonicNanoseconds: try reader.integer(UInt64.self, .monotonicTime),
            bootID: try reader.uuid(.bootID))
        var patientID: String?
        if flags & BinaryFlag.patientIDPresent != 0 {
            let (raw, offset) = try reader.lengthPrefixed(.patientID, wide: wide)
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw reader.failure(.invalidUTF8, .patientID, at: offset, "the \(raw.count) bytes are not UTF-8 text")
            }
            patientID = text
        }
        let (frame, frameOffset) = try reader.lengthPrefixed(.measurement, wide: wide)
        let measurement = try Self.canonicalMeasurement(frame, at: frameOffset, reader: reader)
        try reader.finish()
        let longest = max(patientID?.utf8.count ?? 0, frame.count)
        guard !wide || longest > Int(UInt8.max) else {
            throw reader.failure(.needlessWideForm, .format, at: 0, "format 2 holds fields of at most \(longest) bytes, which format 1 writes")
        }
        self.init(id: id, sensor: sensor, patientID: patientID, measurement: measurement, captured: captured)
    }

    /// Decodes the embedded 0x2A37 value and accepts it only in the form `encoded()` writes.
    private static func canonicalMeasurement(
        _ frame: ArraySlice<UInt8>, at offset: Int, reader: SampleFieldReader
    ) throws(SampleDecodingError) -> HeartRateMeasurement {
        let decoded: DecodedValue<HeartRateMeasurement>
        do {
            decoded = try HeartRateMeasurement.decode(frame)
        } catch {
            throw reader.failure(.invalidMeasurement, .measurement, at: offset, error.description)
        }
        guard decoded.value.encoded().elementsEqual(frame) else {
            throw reader.failure(
                .invalidMeasurement, .measurement, at: offset,
                "the \(frame.count)-byte 0x2A37 value is not in the form the gateway writes (reserved bits, a stray byte, or a 16-bit rate below 256)")
        }
        return decoded.value
    }
}
