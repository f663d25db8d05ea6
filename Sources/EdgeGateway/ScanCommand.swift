import ArgumentParser
import BlueZ
import DBus
import GATTHeartRate
import GatewayCommandLine
import GatewayPipeline
import OutputFormats
import ProcessThreads

/// `edge-gateway scan`: which heart-rate straps are nearby, as they are found.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List heart-rate straps (service 0x180D) nearby, as they are found.",
        discussion: """
            Runs discovery on the adapter for --timeout seconds and prints each strap once, with \
            its address, name, signal strength and whether it is paired or bound. JSON keys: \
            address, name, rssi, paired, bound; a last line {"found":N} ends the list.

            Example:
              edge-gateway scan --timeout 5
            """
    )

    @OptionGroup var options: GatewayOptions

    @Option(help: "Seconds to scan.")
    var timeout: Double = 10

    @Flag(help: "List every LE device, not only heart-rate straps.")
    var all = false

    func validate() throws {
        guard (0.5 ... 600).contains(timeout) else { throw ValidationError("--timeout must be between 0.5 and 600 seconds.") }
    }

    func run() async throws {
        try await CommandError.reporting("scan") {
            let (client, adapter) = try await BluetoothSession.open(options)
            let bound = Set(try options.withBindings { store throws(SensorBindingError) in try store.load() }.map(\.address))
            let events = await client.events()
            try await adapter.setDiscoveryFilter(serviceUUIDs: all ? [] : [BluetoothUUID.heartRateService.uuidString])
            do {
                try await adapter.startDiscovery()
            } catch let error as BlueZError where error.code == "InProgress" {
                options.explain("discovery is already running for this connection; listening to it")
            }
            options.explain("scanning \(adapter.name) for \(timeout) s")
            let found = await report(events, from: client, bound: bound)
            try? await adapter.stopDiscovery()
            StandardOutput.writeLine(
                options.json
                    ? "{\"found\":\(found)}"
                    : "found \(found) \(all ? "device" : "heart-rate strap")\(found == 1 ? "" : "s") in \(timeout) s")
        }
    }

    /// Prints each device seen during the scan once; returns how many.
    private func report(_ events: AsyncStream<BlueZEvent>, from client: BlueZClient, bound: Set<BluetoothAddress>) async -> Int {
        let deadline = Task { try? await ProcessExecutor.sleep(for: .milliseconds(Int(timeout * 1000))) }
        let listener = Task {
            var reported: Set<DBusObjectPath> = []
            for await event in events {
                let path: DBusObjectPath
                switch event {
                case .interfacesAdded(let added, let interfaces) where interfaces[BlueZName.device] != nil: path = added
                case .propertiesChanged(let changed, interface: BlueZName.device, let values) where values["RSSI"] != nil: path = changed
                default: continue
                }
                guard !reported.contains(path), let info = await client.device(at: path)?.info,
                    all || info.serviceUUIDs.contains(BluetoothUUID.heartRateService.uuidString)
                else { continue }
                reported.insert(path)
                print(info, bound: BluetoothAddress(info.address).map(bound.contains) ?? false)
            }
            return reported.count
        }
        await deadline.value
        listener.cancel()
        return await listener.value
    }

    private func print(_ info: Device.Info, bound: Bool) {
        if options.json {
            var line = JSONLine()
            line.add("address", .string(info.address))
            line.add("name", info.name.map(JSONLine.Value.string) ?? .null)
            line.add("rssi", info.rssi.map(JSONLine.Value.integer) ?? .null)
            line.add("paired", .boolean(info.isPaired))
            line.add("bound", .boolean(bound))
            StandardOutput.writeLine(line.text)
        } else {
            let rssi = info.rssi.map { "\($0) dBm" } ?? "– dBm"
            StandardOutput.writeLine(
                "\(info.address)  \(info.name.map(TerminalText.safe) ?? "(no name)")  \(rssi)  paired: \(info.isPaired ? "yes" : "no")  bound: \(bound ? "yes" : "no")"
            )
        }
    }
}
