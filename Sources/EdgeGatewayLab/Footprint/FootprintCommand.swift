import ArgumentParser
import Foundation
import GatewayCommandLine
import OutputFormats

/// `edge-gateway-lab footprint`: what the daemon process costs (CPU per sample, resident
/// memory, bytes written, wake-ups) under the loads issue 16 sets targets for, measured from
/// `/proc` the way the Python comparison was: one daemon at a time, 60 s windows, medians of 3.
struct FootprintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "footprint",
        abstract: "Measure the daemon's CPU, memory, disk writes and wake-ups under set loads.",
        discussion: """
            For each scenario and run: a fresh private bus with a simulated bluetoothd and \
            straps, a simulated JHE, an enrolled state directory, and the real daemon \
            (`edge-gateway run`, next to this program) with its default timings. After a \
            warm-up, the daemon's own counters are read once a second for the window: CPU and \
            run counts per thread (/proc/PID/task/*/schedstat), write_bytes (/proc/PID/io), \
            VmRSS. Then the straps stop, the queue drains, and the run checks that JHE stored \
            every accepted sample exactly once. Prints one line per run and a table of medians \
            (exit 1 if any run lost or duplicated a sample). Needs `dbus-daemon`.

            Example (what `make bench-footprint` runs, on the stripped, statically linked binary
            the .deb ships):
              edge-gateway-lab footprint --seconds 60 --runs 3 --gateway .build-ship/edge-gateway
            """
    )

    @Option(name: .customLong("scenario"), help: "A scenario to run (repeatable; default: all).")
    var scenarios: [FootprintScenario] = []

    @Option(help: "Seconds in each measurement window.")
    var seconds = 60

    @Option(help: "Runs per scenario (the table gives their medians).")
    var runs = 3

    @Option(help: "Seconds between the daemon's first accepted sample and the window.")
    var warmUp = 10

    @Option(help: "The edge-gateway binary to measure (default: the one next to this program).")
    var gateway: String?

    @Option(help: "A peer gateway's directory (peer_gateway.py and sink.py): measured after the daemon in each run, in turns.")
    var peer: String?

    @Option(help: "The Python that runs the peer (one with its requirements installed).")
    var peerPython = "python3"

    @Option(help: "A file to append each run to, as one JSON object per line.")
    var records: String?

    func validate() throws {
        guard (5 ... 3600).contains(seconds) else { throw ValidationError("--seconds must be between 5 and 3600.") }
        guard (1 ... 20).contains(runs) else { throw ValidationError("--runs must be between 1 and 20.") }
        guard (0 ... 600).contains(warmUp) else { throw ValidationError("--warm-up must be between 0 and 600 seconds.") }
        if let peer {
            guard FileManager.default.fileExists(atPath: peer + "/peer_gateway.py"), FileManager.default.fileExists(atPath: peer + "/sink.py") else {
                throw ValidationError("--peer \(peer): no peer_gateway.py and sink.py there.")
            }
            guard scenarios.allSatisfy(\.notifies) && !scenarios.isEmpty else {
                throw ValidationError("--peer needs --scenario, and only scenarios whose straps notify.")
            }
        }
    }

    func run() async throws {
        var finished: [FootprintRun] = []
        for scenario in scenarios.isEmpty ? FootprintScenario.all : scenarios {
            for _ in 0 ..< runs {
                var measured: [FootprintRun] = []
                do {
                    measured.append(
                        try await FootprintRun.measure(scenario, gateway: gateway ?? DemoStage.siblingGateway, seconds: seconds, warmUp: warmUp))
                    if let peer {
                        measured.append(
                            try await FootprintRun.measure(
                                scenario, peer: PeerGateway(directory: peer, python: peerPython), seconds: seconds, warmUp: warmUp))
                    }
                } catch {
                    StandardError.writeLine("edge-gateway-lab footprint: \(error)")
                    throw ExitStatus.negative
                }
                for run in measured {
                    StandardOutput.writeLine(FootprintTable.line(run))
                    if let records { try Self.append(run.record + "\n", to: records) }
                }
                finished += measured
            }
        }
        StandardOutput.writeLine("")
        StandardOutput.writeLine(FootprintTable(runs: finished).markdown)
        if !finished.allSatisfy(\.exactlyOnce) { throw ExitStatus.negative }
    }

    private static func append(_ line: String, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        guard let file = FileHandle(forWritingAtPath: path) else { throw ValidationError("cannot write \(path)") }
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data(line.utf8))
    }
}
