import ArgumentParser
import BlueZ
import GATTHeartRate
import GatewayCommandLine
import GatewayPipeline
import OutputFormats

/// `edge-gateway forget`: unbinds a strap (and makes bluetoothd forget it with `--remove`).
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Unbind a strap; with --remove, bluetoothd forgets it too (bond and cache).",
        discussion: "Example:\n  edge-gateway forget F0:1D:2E:3C:4B:5A --remove"
    )

    @OptionGroup var options: GatewayOptions

    @Argument(help: "The strap's Bluetooth address.")
    var address: BluetoothAddress

    @Flag(help: "Also remove the device from bluetoothd (RemoveDevice).")
    var remove = false

    func run() async throws {
        try await CommandError.reporting("forget") {
            let unbound = try options.withBindings { store throws(SensorBindingError) in try store.unbind(address) }
            var removed = false
            if remove {
                let (client, adapter) = try await BluetoothSession.open(options)
                if let device = await client.device(address: address.description, on: adapter) {
                    try await adapter.removeDevice(device)
                    removed = true
                }
            }
            guard unbound || removed else {
                throw CommandError.other("\(address) is not bound to this gateway (see `edge-gateway sensors`)")
            }
            if options.json {
                StandardOutput.writeLine("{\"address\":\"\(address)\",\"unbound\":\(unbound),\"removed\":\(removed)}")
            } else {
                StandardOutput.writeLine(
                    "\(address): \(unbound ? "unbound" : "was not bound")\(remove ? (removed ? "; removed from bluetoothd" : "; bluetoothd did not know it") : "")"
                )
            }
        }
    }
}
