import BlueZ
import DBus
import GatewayPipeline

/// `doctor`'s Bluetooth checks: bluetoothd owns `org.bluez` on the system bus, the configured
/// adapters exist and are powered (and how many more straps their connection slots hold), and
/// bluetoothd knows every bound strap on one of them (a strap it has forgotten cannot be
/// connected until it is found again).
enum BluetoothChecks {
    /// The checks, in order; later ones are reported as not checked when an earlier one fails.
    static func run(bus: DBusConnection.Bus, plan: AdapterPlan, bindings: Result<[SensorBinding], SensorBindingError>) async -> [DoctorCheck] {
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
        let checks = await run(client: client, plan: plan, bindings: bindings)
        await client.close()
        return checks
    }

    private static func run(client: BlueZClient, plan: AdapterPlan, bindings: Result<[SensorBinding], SensorBindingError>) async -> [DoctorCheck] {
        guard await client.isDaemonRunning else {
            return [
                .fail(
                    "bluetoothd", "not running (nobody owns org.bluez on the system bus)",
                    fix: "start it: systemctl start bluetooth")
            ]
                + skipped(because: "bluetoothd is not running")
        }
        var checks = [DoctorCheck.pass("bluetoothd", "running (org.bluez owned on the system bus)")]
        let present = await client.adapters()
        let names = present.map(\.name)
        let missing = plan.names?.filter { !names.contains($0) } ?? []
        let used = present.filter { plan.selects($0.name) }
        guard missing.isEmpty, !used.isEmpty else {
            let what = missing.isEmpty ? "no Bluetooth adapter" : "no adapter \(missing.joined(separator: ", "))"
            checks.append(
                .fail(
                    "adapter", what + (names.isEmpty ? " (none at all)" : " (present: \(names.joined(separator: ", ")))"),
                    fix: names.isEmpty
                        ? "plug in the Bluetooth dongle, check `rfkill list`"
                        : "set [bluetooth] adapters in the configuration to \"all\" or to adapters present"))
            return checks + [.fail("sensors", "not checked: an adapter is missing", fix: "fix the adapters first")]
        }
        var powered: [Adapter] = []
        for adapter in used where await adapter.isPowered { powered.append(adapter) }
        let off = used.filter { !powered.contains($0) }.map(\.name)
        guard off.isEmpty else {
            let fix =
                names.count == 1
                ? "turn it on: bluetoothctl power on" : "turn each on: bluetoothctl, then select \(off[0]) and power on"
            checks.append(
                .fail(
                    "adapter", "\(off.joined(separator: ", ")) \(off.count == 1 ? "is" : "are") powered off",
                    fix: fix + " (check `rfkill list` if that fails)"))
            return checks + [.fail("sensors", "not checked: an adapter is off", fix: "power the adapters on first")]
        }
        let slots = powered.reduce(0) { $0 + plan.capacity(of: $1.name) }
        let bound = (try? bindings.get().count) ?? 0
        let held = "\(powered.map(\.name).joined(separator: ", ")) present and powered; \(slots) connection slots, \(bound) bound"
        if bound > slots {
            checks.append(
                .fail(
                    "adapter", "\(held): \(bound - slots) straps cannot connect at once",
                    fix: "plug in another adapter, or raise [bluetooth] max_connections if the controller is known to hold more"))
        } else {
            checks.append(.pass("adapter", "\(held): room for \(slots - bound) more straps"))
        }
        checks.append(await sensors(client: client, adapters: powered, bindings: bindings))
        return checks
    }

    private static func sensors(client: BlueZClient, adapters: [Adapter], bindings: Result<[SensorBinding], SensorBindingError>) async -> DoctorCheck {
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
            var known = false
            for adapter in adapters where await client.device(address: binding.address.description, on: adapter) != nil { known = true }
            if !known {
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
