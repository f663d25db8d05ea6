import ArgumentParser
import GatewayCommandLine
import GatewayOperations
import OfflineQueue
import OutputFormats

/// `edge-gateway queue dead`: the records the server refused, and why.
struct QueueDeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead",
        abstract: "List dead letters (rejected records) with their reasons.",
        discussion: """
            --json prints one object per dead letter: {"id":N,"stream":"…","capture_time_ns":N,\
            "rejected_at_ns":N,"version":N,"payload_bytes":N,"reason":"…"}
            """
    )

    @OptionGroup var state: StateDirectoryOption

    @Flag(name: .long, help: "Print one JSON object per line.")
    var json = false

    func run() async throws {
        try await QueueFailure.run(try state.attachQueue()) { queue in
            for letter in try await queue.deadLetters() {
                StandardOutput.writeLine(json ? Self.jsonLine(letter) : Self.humanLine(letter))
            }
        }
    }

    static func jsonLine(_ letter: DeadLetter) -> String {
        var line = JSONLine()
        line.add("id", .integer(Int(letter.record.id)))
        line.add("stream", .string(letter.record.stream))
        line.add("capture_time_ns", .integer(Int(letter.record.captureTime)))
        line.add("rejected_at_ns", .integer(Int(letter.rejectedAt)))
        line.add("version", .integer(letter.record.version))
        line.add("payload_bytes", .integer(letter.record.payload.count))
        line.add("reason", .string(letter.reason))
        return line.text
    }

    static func humanLine(_ letter: DeadLetter) -> String {
        "\(letter.record.id)  \(letter.record.stream)  captured \(ExportRow.utc(letter.record.captureTime))  rejected \(ExportRow.utc(letter.rejectedAt))  \(letter.reason)"
    }
}
