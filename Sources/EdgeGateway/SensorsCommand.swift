import ArgumentParser
import BlueZ
import GATTHeartRate
import GatewayCommandLine
import GatewayPipeline
import OutputFormats

/// `edge-gateway sensors`: the bound straps, with what bluetoothd currently knows of them.
struct SensorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensors",
        abstract: "List the bound straps with their last-known state.",
        discussion: """
            The state (connected, battery, signal) comes from bluetoothd when it is reachable; \
            otherwise only the bindings are listed. JSON keys: address, alias, patient_id, \
            added_at, connected, battery_percent, rssi.
            """
    )

    @OptionGroup var options: GatewayOptions

    func run() async throws {
        try await CommandError.reporting("sensors") {
            let bindings = try options.withBindings { store throws(SensorBindingError) in try store.load() }
            let bluetooth = try? await BluetoothSession.open(options)
            if bluetooth == nil { options.explain("bluetoothd is not reachable: showing bindings only") }
            if bindings.isEmpty && !options.json {
                StandardOutput.writeLine("no strap is bound; bind one with `edge-gateway pair ADDRESS`")
            }
            for binding in bindings {
                let info = await bluetooth?.client.device(address: binding.address.description, on: bluetooth?.adapter)?.info
                print(binding, info)
            }
        }
    }

    private func print(_ binding: SensorBinding, _ info: Device.Info?) {
        let added = RFC3339.format(binding.addedAt)
        if options.json {
            var line = JSONLine()
            line.add("address", .string(binding.address.description))
            line.add("alias", binding.alias.map(JSONLine.Value.string) ?? .null)
            line.add("patient_id", binding.patientID.map(JSONLine.Value.string) ?? .null)
            line.add("added_at", .string(added))
            line.add("connected", info.map { .boolean($0.isConnected) } ?? .null)
            line.add("battery_percent", info?.batteryPercentage.map(JSONLine.Value.integer) ?? .null)
            line.add("rssi", info?.rssi.map(JSONLine.Value.integer) ?? .null)
            StandardOutput.writeLine(line.text)
        } else {
            let name = TerminalText.safe(binding.alias ?? info?.name ?? "")
            let state = info.map { $0.isConnected ? "connected" : "not connected" } ?? "unknown to bluetoothd"
            let battery = info?.batteryPercentage.map { "  battery \($0) %" } ?? ""
            StandardOutput.writeLine("\(binding.address)  \(name)  \(state)\(battery)  patient: \(binding.patientID ?? "–")  added \(added)")
        }
    }
}
