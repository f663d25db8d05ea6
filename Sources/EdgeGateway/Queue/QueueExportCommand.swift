import ArgumentParser
import GatewayCommandLine
import GatewayOperations
import GatewayPipeline
import OfflineQueue
import OutputFormats

/// `edge-gateway queue export`: the samples still on the gateway, for a technician or a study
/// coordinator, without disturbing the uploader (it only reads).
struct QueueExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the queued (pending and leased) heart-rate samples as JSON lines or CSV.",
        discussion: """
            Columns / keys, in acceptance order: \(ExportRow.columns.joined(separator: ", ")). \
            Records that are not heart-rate samples are reported on standard error and make the \
            exit status 65; the others are still printed. --held prints the samples waiting \
            for the clock to synchronise (\(HeldSamples.fileName)) instead, with the times they \
            were stamped with.
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, csv
    }

    @OptionGroup var state: StateDirectoryOption

    @Option(name: .long, help: "jsonl (one JSON object per line) or csv (with a header line).")
    var format: Format = .jsonl

    @Flag(name: .long, help: "Export the samples held for the clock instead of the upload queue.")
    var held = false

    func run() async throws {
        var undecodable = 0
        try await QueueFailure.run(try state.attachQueue(path: held ? state.heldQueuePath : nil)) { queue in
            if format == .csv { StandardOutput.writeLine(ExportRow.csvHeader) }
            var after: Int64 = 0
            while true {
                let page = try await queue.records(after: after, limit: 1000)
                guard let last = page.last else { break }
                after = last.id
                for record in page {
                    do throws(SampleRecordError) {
                        let row = ExportRow(record: record, sample: try SampleRecordCodec.sample(from: record))
                        StandardOutput.writeLine(format == .csv ? row.csvLine : row.jsonLine)
                    } catch {
                        undecodable += 1
                        QueueFailure.report("\(error)")
                    }
                }
            }
        }
        if undecodable > 0 { throw ExitStatus.dataError }
    }
}
