import ArgumentParser
import GatewayCommandLine
import GatewayOperations
import OutputFormats

/// `edge-gateway decode`: lets a technician check what a strap sent, from a hex dump.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode Heart Rate Service frames given in hex.",
        discussion: """
            Each FRAME argument is one characteristic value, written with or without separators \
            (104ed202c802, "10 4e d2 02 c8 02", 10:4e:d2:02:c8:02). Several frames may follow; \
            - reads one frame per line from standard input (blank lines and lines starting with \
            # are skipped).

            Exit status: 0 when every frame decoded, 65 when any frame was malformed, 64 for \
            bad usage.

            Examples:
              edge-gateway decode 104ed202c802
                78 bpm  contact: not supported  RR: 705.1 ms, 695.3 ms
              edge-gateway decode --json "16 34 e4 04"
              edge-gateway decode --characteristic 2a19 5a
              printf '104ed202c802\\n103bd304\\n' | edge-gateway decode -
            """
    )

    @Option(
        name: .long,
        help: "The characteristic the frames come from: 2a37 (Heart Rate Measurement), 2a38 (Body Sensor Location), 2a19 (Battery Level)."
    )
    var characteristic: DecodableCharacteristic = .heartRateMeasurement

    @Flag(name: .long, help: "Print one JSON object per frame per line.")
    var json = false

    @Argument(help: ArgumentHelp("Frames in hex, or - to read one per line from standard input.", valueName: "FRAME"))
    var frames: [String] = []

    func validate() throws {
        guard !frames.isEmpty else {
            throw ValidationError("Give at least one frame in hex, or - to read frames from standard input.")
        }
    }

    func run() throws {
        var malformed = 0
        for frame in expandedFrames() {
            let report = FrameReport(text: frame, characteristic: characteristic)
            StandardOutput.writeLine(json ? report.jsonLine : report.humanLine)
            if report.isMalformed { malformed += 1 }
        }
        if malformed > 0 { throw ExitStatus.dataError }
    }

    /// The frames in order, with each `-` replaced by the lines of standard input.
    private func expandedFrames() -> some Sequence<String> {
        frames.lazy.flatMap { frame -> AnySequence<String> in
            guard frame == "-" else { return AnySequence(CollectionOfOne(frame)) }
            return AnySequence(
                sequence(state: ()) { _ in readLine() }.lazy.filter { line in
                    let trimmed = line.drop(while: \.isWhitespace)
                    return !trimmed.isEmpty && !trimmed.hasPrefix("#")
                })
        }
    }
}

extension DecodableCharacteristic: ExpressibleByArgument {
    /// The names `--help` lists.
    package static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
