import ArgumentParser
import BlueZ
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import GatewayCommandLine
import GatewayPipeline
import Glibc
import OutputFormats

/// `edge-gateway live`: decoded samples as they arrive, for a technician checking a strap.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Connect straps and print decoded samples as they arrive.",
        discussion: """
            With ADDRESS, that strap; without, every bound strap. Connects and reconnects like the \
            daemon does. Human lines: `14:02:11  Polar H10 A1B2  78 bpm  contact ✓  RR 705 ms`; \
            JSON keys: address, time, bpm, contact, rr_intervals_ms.

            Example:
              edge-gateway live F0:1D:2E:3C:4B:5A --count 10
            """
    )

    @OptionGroup var options: GatewayOptions

    @Argument(help: "A strap's Bluetooth address (default: every bound strap).")
    var address: BluetoothAddress?

    @Option(help: "Stop after this many samples.")
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
    }

    func run() async throws {
        try await CommandError.reporting("live") {
            let (client, _) = try await BluetoothSession.open(options)
            let names = try straps()
            guard !names.isEmpty else {
                throw CommandError.other("no strap is bound: give an ADDRESS, or bind one with `edge-gateway pair`")
            }
            let printer = SamplePrinter(json: options.json, names: names, limit: count)
            let slots = ConnectionSlots(limit: 3)
            let radio = BlueZStrapRadio(client: client, discovery: DiscoverySessions())
            let plan = AdapterPlan(names: [options.adapter])
            let placement = AdapterPlacement(plan: plan)
            let clock = CaptureClock()
            let verbose = options.verbose
            let malformed = MalformedFrameLog { StandardError.writeLine($0) }
            // Samples arrive on the bus thread; the stream keeps their order on the way out.
            let (samples, arrived) = AsyncStream.makeStream(of: HeartRateSample.self)
            let supervisors = names.keys.map { address in
                SensorSupervisor(
                    address: address, patientID: nil, radio: radio, plan: plan, placement: placement,
                    policy: .defaults, slots: slots, clock: clock,
                    onSample: { arrived.yield($0) },
                    onEvent: { event in
                        if case .malformedFrame(let address, let bytes, let error, let count) = event {
                            Task { await malformed.record(address, bytes: bytes, error: error, total: count) }
                        } else if verbose {
                            StandardError.writeLine(String(describing: event))
                        }
                    })
            }
            await withTaskGroup(of: Void.self) { group in
                for supervisor in supervisors { group.addTask { await supervisor.run() } }
                group.addTask {
                    for await sample in samples { await printer.print(sample) }
                }
                group.addTask { await printer.waitUntilDone() }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// The straps to show, with their display names.
    private func straps() throws -> [BluetoothAddress: String] {
        let bindings = try options.withBindings { store throws(SensorBindingError) in try store.load() }
        if let address {
            let alias = bindings.first { $0.address == address }?.alias
            return [address: alias ?? address.description]
        }
        return Dictionary(uniqueKeysWithValues: bindings.map { ($0.address, $0.alias ?? $0.address.description) })
    }
}

/// Prints samples in arrival order and ends the command after the requested number.
actor SamplePrinter {
    private let json: Bool
    private let names: [BluetoothAddress: String]
    private let limit: Int?
    private var printed = 0
    private var done: [CheckedContinuation<Void, Never>] = []

    init(json: Bool, names: [BluetoothAddress: String], limit: Int?) {
        self.json = json
        self.names = names
        self.limit = limit
    }

    func print(_ sample: HeartRateSample) {
        if let limit, printed >= limit { return }
        printed += 1
        StandardOutput.writeLine(json ? jsonLine(sample) : humanLine(sample))
        if let limit, printed >= limit {
            done.forEach { $0.resume() }
            done.removeAll()
        }
    }

    /// Returns once `limit` samples are printed (never without a limit).
    func waitUntilDone() async {
        if let limit, printed >= limit { return }
        await withCheckedContinuation { done.append($0) }
    }

    /// `HH:MM:SS` in the box's time zone (localtime_r: no ICU in the shipped binary).
    private static func localClockTime(_ nanosecondsSince1970: Int64) -> String {
        var seconds = time_t(nanosecondsSince1970 / 1_000_000_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }

    private func humanLine(_ sample: HeartRateSample) -> String {
        let time = Self.localClockTime(sample.captured.wallClockNanoseconds)
        let measurement = sample.measurement
        let contact =
            switch measurement.contact {
            case .detected: "contact ✓"
            case .notDetected: "contact ✗"
            case .notSupported: "contact –"
            }
        let rr =
            measurement.rrIntervals.isEmpty
            ? ""
            : "  RR "
                + measurement.rrIntervals
                .map { DecimalText.format(numerator: Int($0) * 1000, denominator: 1024, fractionDigits: 1).split(separator: ".")[0] + " ms" }
                .joined(separator: ", ")
        return "\(time)  \(names[sample.sensor].map(TerminalText.safe) ?? sample.sensor.description)  \(measurement.bpm) bpm  \(contact)\(rr)"
    }

    private func jsonLine(_ sample: HeartRateSample) -> String {
        var line = JSONLine()
        line.add("address", .string(sample.sensor.description))
        line.add("time", .string(RFC3339.format(sample.captured.wallClock)))
        line.add("bpm", .integer(Int(sample.measurement.bpm)))
        line.add("contact", .string(sample.measurement.contact.rawValue))
        line.add(
            "rr_intervals_ms",
            .array(
                sample.measurement.rrIntervals.map {
                    .number(DecimalText.milliseconds(fromRRInterval: $0, fractionDigits: 3))
                }))
        return line.text
    }
}
