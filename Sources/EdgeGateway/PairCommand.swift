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
import OutputFormats
import ProcessThreads

/// `edge-gateway pair`: checks a strap is a heart-rate strap, bonds when it can, and binds it.
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Connect a strap, check its heart-rate service, pair and trust it, and bind it to this gateway.",
        discussion: """
            Many straps need no bond: when a strap refuses pairing, the gateway says so and binds \
            it anyway (it reconnects without pairing). The binding is stored in the state \
            directory; the daemon supervises bound straps.

            Example:
              edge-gateway pair F0:1D:2E:3C:4B:5A --alias "bed 3" --patient 40006
            """
    )

    @OptionGroup var options: GatewayOptions

    @Argument(help: "The strap's Bluetooth address (see `edge-gateway scan`).")
    var address: BluetoothAddress

    @Option(help: "A name for the strap, shown in status and logs.")
    var alias: String?

    @Option(help: "The JHE patient id the strap's samples belong to.")
    var patient: String?

    @Flag(help: "Do not pair (bond); only trust and bind.")
    var noBond = false

    @Option(help: "Seconds to look for a strap bluetoothd does not know yet.")
    var timeout: Double = 20

    func run() async throws {
        try await CommandError.reporting("pair") {
            let (client, adapter) = try await BluetoothSession.open(options)
            let device = try await find(client: client, adapter: adapter)
            try await connect(device)
            guard await device.waitForServicesResolved(timeout: .seconds(30)) else {
                throw CommandError.temporary("\(address) connected but did not finish service discovery; try again")
            }
            guard await device.waitForCharacteristic(BluetoothUUID.heartRateMeasurement.uuidString, timeout: .seconds(15)) != nil else {
                try? await device.disconnect()
                throw CommandError.other("\(address) has no heart-rate service (0x180D with 0x2A37): it is not a heart-rate strap")
            }
            let bonded = try await bond(device, client: client)
            try await device.setTrusted(true)
            let details = await StrapDetails.read(device)
            try? await device.disconnect()
            let binding = SensorBinding(address: address, alias: alias, patientID: patient, addedAt: Date())
            try options.withBindings { store throws(SensorBindingError) in try store.bind(binding) }
            report(binding, details: details, bonded: bonded)
        }
    }

    /// The device, discovering it when bluetoothd does not know it yet.
    private func find(client: BlueZClient, adapter: Adapter) async throws -> Device {
        let text = address.description
        if let device = await client.device(address: text, on: adapter) { return device }
        options.explain("\(text) is not known to bluetoothd; discovering for up to \(timeout) s")
        try await adapter.setDiscoveryFilter(serviceUUIDs: [BluetoothUUID.heartRateService.uuidString])
        try await adapter.startDiscovery()
        let found = await client.wait(timeout: .milliseconds(Int(timeout * 1000))) { $0.device(address: text, on: adapter) != nil }
        try? await adapter.stopDiscovery()
        guard found, let device = await client.device(address: text, on: adapter) else {
            throw CommandError.temporary(
                "\(text) was not found within \(timeout) s: is it worn (most straps sleep off the skin) and in range? `edge-gateway scan` lists the straps nearby"
            )
        }
        return device
    }

    /// Connects, trying twice more after a failure that may clear (the link dropped as it came
    /// up, a busy controller): one abort should not send the technician back to the start.
    private func connect(_ device: Device) async throws(BlueZError) {
        for pause in [1, 2] {
            options.explain("connecting \(address)")
            do {
                return try await device.connect()
            } catch let failure where failure.isTransient {
                StandardError.writeLine("edge-gateway pair: \(failure.description); trying again in \(pause) s")
                try? await ProcessExecutor.sleep(for: .seconds(pause))
            }
        }
        options.explain("connecting \(address)")
        try await device.connect()
    }

    /// Pairs unless told not to, answering bluetoothd's questions with an agent of its own
    /// (`NoInputNoOutput`) for the time it pairs, so the outcome does not depend on whatever
    /// agent is the box's default, or on there being one. A strap that refuses is fine (most
    /// need no bond), and so is one that wants a passkey: the kernel offers it Just Works,
    /// which it refuses the same way.
    private func bond(_ device: Device, client: BlueZClient) async throws(BlueZError) -> Bool {
        guard !noBond else { return false }
        let verbose = options.verbose
        let agent = PairingAgent(connection: client.connection, path: "/org/edgegateway/pair_agent", accepting: { $0 == device.path }) {
            request in
            if verbose {
                StandardError.writeLine("bluetoothd asked \(request.method) for \(request.device): \(request.accepted ? "accepted" : "refused")")
            }
        }
        try await agent.register()
        options.explain("pairing with an agent of its own (\(PairingAgent.capability)) at \(agent.path)")
        let outcome: Result<Void, BlueZError>
        do {
            try await device.pair()
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await agent.unregister()
        guard case .failure(let error) = outcome, error.code != "AlreadyExists" else { return true }
        guard Self.refusals.contains(error.code) else { throw error }
        StandardError.writeLine("\(address) does not support pairing (\(error.message)); continuing without a bond: it reconnects without one")
        return false
    }

    /// Answers of a strap that does not bond.
    private static let refusals: Set<String> = ["AuthenticationFailed", "AuthenticationRejected", "AuthenticationCanceled", "NotSupported"]

    private func report(_ binding: SensorBinding, details: DeviceDetails, bonded: Bool) {
        if options.json {
            var line = JSONLine()
            line.add("address", .string(address.description))
            line.add("name", details.name.map(JSONLine.Value.string) ?? .null)
            line.add("alias", binding.alias.map(JSONLine.Value.string) ?? .null)
            line.add("patient_id", binding.patientID.map(JSONLine.Value.string) ?? .null)
            line.add("bonded", .boolean(bonded))
            line.add("body_location", details.bodySensorLocation.map { .string($0.description) } ?? .null)
            line.add("battery_percent", details.batteryPercent.map(JSONLine.Value.integer) ?? .null)
            line.add("manufacturer", details.manufacturer.map(JSONLine.Value.string) ?? .null)
            line.add("model", details.model.map(JSONLine.Value.string) ?? .null)
            line.add("bound", .boolean(true))
            StandardOutput.writeLine(line.text)
        } else {
            let model = TerminalText.safe([details.manufacturer, details.model].compactMap { $0 }.joined(separator: " "))
            StandardOutput.writeLine("bound \(address) \(TerminalText.safe(details.name ?? ""))\(model.isEmpty ? "" : " (\(model))")")
            StandardOutput.writeLine(
                "  bonded: \(bonded ? "yes" : "no")  location: \(details.bodySensorLocation?.description ?? "unknown")  battery: \(details.batteryPercent.map { "\($0) %" } ?? "unknown")"
            )
            if let patient = binding.patientID { StandardOutput.writeLine("  patient: \(patient)") }
        }
    }
}
