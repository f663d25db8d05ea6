import Foundation
import GatewayCommandLine

/// The soak's time series of the daemon's memory and open files, and the test that they stayed
/// flat: the mean of the last quarter against the mean of the first quarter after warm-up.
///
/// Memory is judged by its anonymous part (`RssAnon`: the heap, stacks, copied-on-write data),
/// which is what a leak grows. RSS is printed beside it but not judged: its file pages follow
/// the code that runs (a link drop, an outage and a restart each map theirs back after the
/// daemon unmapped what start-up ran, `CodePageTrim`), which is no leak.
struct SoakSeries {
    /// One reading of the daemon.
    struct Point {
        let second: Int
        let usage: ProcessUsage
    }

    /// Anonymous memory may grow by this fraction between the first and last quarter, and by
    /// at least `anonymousFloorMiB`: the outage's backlog, held in memory while it drains, leaves
    /// malloc's high-water mark about 1 MiB higher (4.1 → 5.1 MiB in an hour's soak of 1389b02),
    /// and a leak of 60 bytes a sample over an hour at 10 Hz exceeds the floor.
    static let anonymousTolerance = 0.10
    static let anonymousFloorMiB = 2.0
    /// Open file descriptors may grow by this many between the first and last quarter's means.
    static let descriptorTolerance = 2.0

    private(set) var points: [Point] = []
    let warmUp: Int

    init(warmUp: Int) { self.warmUp = warmUp }

    mutating func append(_ point: Point) { points.append(point) }

    private var measured: [Point] { points.filter { $0.second >= warmUp } }
    private var quarters: (first: ArraySlice<Point>, last: ArraySlice<Point>)? {
        let points = measured
        guard points.count >= 4 else { return nil }
        return (points.prefix(points.count / 4), points.suffix(points.count / 4))
    }

    private static func mean(_ points: ArraySlice<Point>, _ value: (ProcessUsage) -> Int) -> Double {
        Double(points.reduce(0) { $0 + value($1.usage) }) / Double(max(1, points.count))
    }

    /// First- and last-quarter means of anonymous memory and RSS (MiB) and open descriptors;
    /// nil with fewer than four points.
    var means: (anonymousFirst: Double, anonymousLast: Double, rssFirst: Double, rssLast: Double, fdFirst: Double, fdLast: Double)? {
        quarters.map { quarters in
            (
                Self.mean(quarters.first, \.anonymousBytes) / 1_048_576, Self.mean(quarters.last, \.anonymousBytes) / 1_048_576,
                Self.mean(quarters.first, \.residentBytes) / 1_048_576, Self.mean(quarters.last, \.residentBytes) / 1_048_576,
                Self.mean(quarters.first, \.openFileDescriptors), Self.mean(quarters.last, \.openFileDescriptors)
            )
        }
    }

    /// The most anonymous memory may grow, in MiB, from `first`.
    static func anonymousLimit(from first: Double) -> Double {
        max(first * anonymousTolerance, anonymousFloorMiB)
    }

    /// Anonymous memory and open descriptors did not grow beyond the tolerances.
    var flat: Bool {
        guard let means else { return false }
        return means.anonymousLast <= means.anonymousFirst + Self.anonymousLimit(from: means.anonymousFirst)
            && means.fdLast <= means.fdFirst + Self.descriptorTolerance
    }

    /// A line per reading, as the soak prints it.
    static func line(_ point: Point, backlog: Int?, accepted: Int, stored: Int) -> String {
        String(
            format: "t=%6ld s  anon %5.1f MiB  rss %6.1f MiB  peak %6.1f MiB  fds %4ld  backlog %6ld  accepted %8ld  stored %8ld",
            point.second, Double(point.usage.anonymousBytes) / 1_048_576, Double(point.usage.residentBytes) / 1_048_576,
            Double(point.usage.peakResidentBytes) / 1_048_576, point.usage.openFileDescriptors, backlog ?? -1, accepted, stored)
    }

    var summary: String {
        guard let means else { return "flatness: fewer than 4 readings after warm-up, not judged" }
        return String(
            format:
                "flatness (first vs last quarter after %ld s warm-up): anonymous memory %.1f → %.1f MiB (limit +%.1f), fds %.1f → %.1f (limit +%.0f); RSS %.1f → %.1f MiB (not judged: file pages): ",
            warmUp, means.anonymousFirst, means.anonymousLast, Self.anonymousLimit(from: means.anonymousFirst), means.fdFirst, means.fdLast,
            Self.descriptorTolerance, means.rssFirst, means.rssLast) + (flat ? "flat" : "NOT flat")
    }
}
