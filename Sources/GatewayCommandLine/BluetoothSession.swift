import BlueZ

/// Opens BlueZ for a command and checks that it can work: the system bus answers, bluetoothd
/// runs, and the adapter exists and is powered. Each problem gets its own sentence and exit 69.
package enum BluetoothSession {
    /// The client and the adapter `options` name, or the reason (exit 69) they cannot be used.
    package static func open(_ options: GatewayOptions) async throws(CommandError) -> (client: BlueZClient, adapter: Adapter) {
        let client: BlueZClient
        do {
            client = try await BlueZClient.connect(.system)
        } catch {
            throw .unavailable("cannot reach the system D-Bus bus (\(error)); is dbus running, and is DBUS_SYSTEM_BUS_ADDRESS right if set?")
        }
        guard await client.isDaemonRunning else {
            throw .unavailable("bluetoothd is not running (nobody owns org.bluez on the system bus): start it with `systemctl start bluetooth`")
        }
        guard let adapter = await client.adapter(named: options.adapter) else {
            let present = await client.adapters().map(\.name)
            throw .unavailable(
                "no adapter \(options.adapter)"
                    + (present.isEmpty
                        ? " (no adapter at all: is the Bluetooth dongle plugged in?)"
                        : " (present: \(present.joined(separator: ", "))); choose one with --adapter"))
        }
        guard await adapter.isPowered else {
            throw .unavailable("adapter \(options.adapter) is powered off: turn it on with `bluetoothctl power on` (check `rfkill list` if that fails)")
        }
        options.explain("using \(adapter.path)")
        return (client, adapter)
    }
}
