#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Compact UTC timestamps (`20261122T103500Z`) for file names.
enum UTCTimestamp {
    private static let style = Date.ISO8601FormatStyle(
        dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted, timeZone: .gmt)

    /// `nanoseconds` since 1970 as `YYYYMMDDTHHMMSSZ`.
    static func compact(nanosecondsSince1970 nanoseconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(nanoseconds / 1_000_000_000)).formatted(style)
    }
}
