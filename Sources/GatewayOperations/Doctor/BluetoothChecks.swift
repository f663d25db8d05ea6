import BlueZ
import DBus
import GatewayPipeline

/// `doctor`'s Bluetooth checks: bluetoothd owns `org.bluez` on the system bus, the configured
/// adapter exists and is powered, and bluetoothd knows every bound strap (a strap it has
/// forgotten cannot be connected until it is found again).
enum BluetoothChecks {
    /// The checks, in order; later ones are reported as not checked when an earlier one fails.
    static func run(bus: DBusConnection.Bus, adapterName: String, bindings: Result<[SensorBinding], SensorBindingError>) async -> [DoctorCheck] {
        let client: BlueZClient
        do {
            client = try await BlueZClient.connect(bus)
        } catch {
            return [
                .fail(
                    "bluetoothd", "cannot reach the system D-Bus bus (\(error))",
                    fix: "check that dbus runs (systemctl status dbus) and that DBUS_SYSTEM_BUS_ADDRESS, if set, is right")
            ]
                + skipped(because: "the system bus is unreachable")
        }
        let checks = await run(client: client, adapterName: adapterName, bindings: bindings)
        await client.close()
        return checks
    }

    private static func run(client: BlueZClient, adapterName: String, bindings: Result<[SensorBinding], SensorBindingError>) async -> [DoctorCheck] {
        guard await client.isDaemonRunning else {
            return [
                .fail(
                    "bluetoothd", "not running (nobody owns org.bluez on the system bus)",
                    fix: "start it: systemctl start bluetooth")
            ]
                + skipped(because: "bluetoothd is not running")
        }
        var checks = [DoctorCheck.pass("bluetoothd", "running (org.bluez owned on the system bus)")]
        guard let adapter = await client.adapter(named: adapterName) else {
            let present = await client.adapters().map(\.name)
            checks.append(
                .fail(
                    "adapter", "no adapter \(adapterName)" + (present.isEmpty ? " (none at all)" : " (present: \(present.joined(separator: ", ")))"),
                    fix: present.isEmpty ? "plug in the Bluetooth dongle, check `rfkill list`" : "set [bluetooth] adapter in the configuration to one of them"))
            return checks + [.fail("sensors", "not checked: adapter \(adapterName) is missing", fix: "fix the adapter first")]
        }
        guard await adapter.isPowered else {
            checks.append(.fail("adapter", "\(adapterName) is powered off", fix: "turn it on: bluetoothctl power on (check `rfkill list` if that fails)"))
            return checks + [.fail("sensors", "not checked: adapter \(adapterName) is off", fix: "power the adapter on first")]
        }
        checks.append(.pass("adapter", "\(adapterName) present and powered"))
        checks.append(await sensors(client: client, adapter: adapter, bindings: bindings))
        return checks
    }

    private static func sensors(client: BlueZClient, adapter: Adapter, bindings: Result<[SensorBinding], SensorBindingError>) async -> DoctorCheck {
        let bound: [SensorBinding]
        switch bindings {
        case .failure(let failure):
            return .fail("sensors", failure.description, fix: "repair or remove sensors.json, then pair the straps again")
        case .success(let list):
            bound = list
        }
        guard !bound.isEmpty else {
            return .fail("sensors", "no strap is bound", fix: "find one with `edge-gateway scan`, bind it with `edge-gateway pair ADDRESS`")
        }
        var unknown: [String] = []
        for binding in bound {
            if await client.device(address: binding.address.description, on: adapter) == nil {
                unknown.append(binding.address.description)
            }
        }
        guard unknown.isEmpty else {
            return .fail(
                "sensors", "\(unknown.count) of \(bound.count) bound straps unknown to bluetoothd: \(unknown.joined(separator: ", "))",
                fix: "wake the strap (wear it), bring it in range and run `edge-gateway pair ADDRESS` again")
        }
        return .pass("sensors", "\(bound.count) bound, all known to bluetoothd")
    }

    private static func skipped(because reason: String) -> [DoctorCheck] {
        [
            .fail("adapter", "not checked: \(reason)", fix: "fix bluetoothd first"),
            .fail("sensors", "not checked: \(reason)", fix: "fix bluetoothd first"),
        ]
    }
}
