#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Uplink

/// Dates as RFC 3339 UTC with milliseconds, the one time format of the gateway's output.
public enum RFC3339Text {
    /// `date` in UTC as RFC 3339 with milliseconds.
    public static func format(_ date: Date) -> String {
        RFC3339.format(nanosecondsSince1970: Int64((date.timeIntervalSince1970 * 1_000_000_000).rounded()))
    }
}
