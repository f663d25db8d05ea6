#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayStatus
import OutputFormats

/// `status --history`: the upload attempts as a table, or one JSON object per line with the
/// keys `started_at`, `duration_s`, `samples`, `delivered`, `duplicate`, `rejected`, `held`
/// (refused with 403: the key predates the table's `FORBIDDEN` and stays for scripts),
/// `skipped`, `retry_later`, `error`. Oldest first, like a log.
package enum UploadHistoryOutput {
    /// The table's lines.
    package static func table(_ attempts: [UploadAttempt]) -> [String] {
        guard !attempts.isEmpty else { return ["no upload attempts recorded yet"] }
        var table = TextTable(header: ["STARTED", "DURATION", "SAMPLES", "DELIVERED", "DUPLICATE", "REJECTED", "FORBIDDEN", "SKIPPED", "RETRY", "ERROR"])
        for attempt in attempts {
            table.add([
                RFC3339.format(attempt.startedAt), AgeText.decimalSeconds(attempt.durationSeconds) + " s",
                String(attempt.samples), String(attempt.delivered), String(attempt.duplicate), String(attempt.rejected),
                String(attempt.forbidden), String(attempt.skipped), String(attempt.retryLater), attempt.error ?? "-",
            ])
        }
        return table.lines
    }

    /// One JSON object per attempt.
    package static func jsonLines(_ attempts: [UploadAttempt]) -> [String] {
        attempts.map { attempt in
            var line = JSONLine()
            line.add("started_at", .string(RFC3339.format(attempt.startedAt)))
            line.add("duration_s", .number(AgeText.decimalSeconds(attempt.durationSeconds)))
            line.add("samples", .integer(attempt.samples))
            line.add("delivered", .integer(attempt.delivered))
            line.add("duplicate", .integer(attempt.duplicate))
            line.add("rejected", .integer(attempt.rejected))
            line.add("held", .integer(attempt.forbidden))
            line.add("skipped", .integer(attempt.skipped))
            line.add("retry_later", .integer(attempt.retryLater))
            line.add("error", .optional(attempt.error))
            return line.text
        }
    }
}
