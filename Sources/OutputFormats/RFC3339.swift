#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 3339 UTC timestamps with milliseconds (`2026-11-22T08:00:01.250Z`), the one time format
/// of the gateway's output and of what the uplink writes into OMH data points and FHIR
/// Observations; and in whole seconds for the daemon's status report, whose dates
/// `JSONEncoder` wrote that way.
///
/// Written by hand from the civil-calendar algorithm rather than a `DateFormatter`: it is exact
/// for integer nanoseconds, allocation-light on the encode hot path, and needs no locale.
package enum RFC3339 {
    /// Formats nanoseconds since 1970-01-01T00:00:00Z, truncated (floored) to the millisecond.
    package static func format(nanosecondsSince1970 nanoseconds: Int64) -> String {
        let milliseconds = floorDivide(nanoseconds, 1_000_000)
        let seconds = floorDivide(milliseconds, 1000)
        return text(secondsSince1970: seconds, milliseconds: Int(milliseconds - seconds * 1000))
    }

    /// `date` with milliseconds: the one time format of the gateway's output.
    package static func format(_ date: Date) -> String {
        format(nanosecondsSince1970: Int64((date.timeIntervalSince1970 * 1_000_000_000).rounded()))
    }

    /// Formats whole seconds since 1970-01-01T00:00:00Z without a fraction
    /// (`2026-11-22T08:00:01Z`), as `JSONEncoder`'s `.iso8601` writes dates.
    package static func format(secondsSince1970 seconds: Int64) -> String {
        text(secondsSince1970: seconds, milliseconds: nil)
    }

    /// `2026-11-22T08:00:01`, then `.250` when `milliseconds` is given, then `Z`, written digit by
    /// digit into one buffer (the upload writes two of these per sample). A year outside
    /// 0–9999, which RFC 3339 cannot write, comes out with all its digits and its sign.
    private static func text(secondsSince1970 seconds: Int64, milliseconds: Int?) -> String {
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(daysSince1970: days)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        func put(_ separator: Unicode.Scalar?, _ value: Int, digits: Int) {
            if let separator { text.append(UInt8(ascii: separator)) }
            ByteText.appendDecimal(value, minimumDigits: digits, to: &text)
        }
        put(nil, year, digits: 4)
        put("-", month, digits: 2)
        put("-", day, digits: 2)
        put("T", secondOfDay / 3600, digits: 2)
        put(":", secondOfDay / 60 % 60, digits: 2)
        put(":", secondOfDay % 60, digits: 2)
        if let milliseconds { put(".", milliseconds, digits: 3) }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor < 0) ? quotient - 1 : quotient
    }

    /// Year, month, day of a day count since 1970-01-01 (proleptic Gregorian).
    private static func civil(daysSince1970: Int64) -> (Int, Int, Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
