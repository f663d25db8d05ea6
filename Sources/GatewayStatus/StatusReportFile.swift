#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DurableFile
import OutputFormats

/// Reads and writes `<state>/status.json` in one agreed encoding (ISO 8601 dates), so the
/// daemon that writes it and the commands that read it cannot drift apart.
package enum StatusReportFile {
    /// The report in `directory`, or nil when the daemon never wrote one.
    package static func read(directory: String) throws(StatusReportError) -> GatewayStatusReport? {
        let path = directory + "/" + GatewayStatusReport.fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            throw StatusReportError(message: "cannot read \(path): check its owner and mode")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(GatewayStatusReport.self, from: data)
        } catch {
            throw StatusReportError(message: "\(path) is not a status report the daemon wrote (\(error)); it is replaced when the daemon runs")
        }
    }

    /// Replaces the report atomically (rename: readers never see half a file) but without
    /// fsync: it is a snapshot rewritten every few seconds, not data, and syncing it would wear
    /// an SD card for nothing.
    package static func write(_ report: GatewayStatusReport, directory: String) throws {
        try DurableFile.replace(directory + "/" + GatewayStatusReport.fileName, with: report.jsonBytes, synced: false)
    }
}

/// The report could not be read (other than being absent).
package struct StatusReportError: CodedError {
    /// The one code.
    package enum Code: String { case reportUnreadable = "status.report-unreadable" }

    /// Always `status.report-unreadable`.
    package let code = Code.reportUnreadable
    /// Which file and what is wrong with it (unreadable, or not a report the daemon wrote).
    package let message: String
}
