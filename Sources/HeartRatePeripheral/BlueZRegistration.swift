import BlueZ
import DBus

/// What the strap asks of bluetoothd: its agent as the default one, the adapter powered, the
/// GATT application and the advertisement registered. All of it dies with bluetoothd, so it is
/// done again each time bluetoothd takes `org.bluez` back, as a peripheral service on a real
/// box must (bluez 5.66 in the test tier segfaults now and then on its own).
struct BlueZRegistration: Sendable {
    let connection: DBusConnection
    let adapterPath: DBusObjectPath

    /// Registers, calls `ready`, then registers again after each bluetoothd restart until the
    /// connection closes. A restarted bluetoothd owns its name before it has read its
    /// controllers back, so a refused registration is tried again every half second, for as long
    /// as it takes: a strap does not give up on a gateway. After `patience` the peripheral says
    /// so once (`registration-failing`). The first registration must succeed at once: the stack
    /// is up when the peripheral starts.
    func keepRegistered(patience: Duration = .seconds(60), ready: () -> Void) async throws {
        let owners = try await connection.nameOwnerChanges(of: BlueZName.service)
        try await register()
        ready()
        for await owner in owners {
            guard owner != nil else {
                PeripheralLog.event("bluetoothd-stopped")
                continue
            }
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: patience)
            var said = false
            while true {
                do {
                    try await register()
                    PeripheralLog.event("registered-again")
                    break
                } catch {
                    if !said && clock.now >= deadline {
                        said = true
                        PeripheralLog.event("registration-failing", "\"error\":\"\(Self.errorName(error))\"")
                    }
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
        }
    }

    /// The strap's side of pairing: an agent that accepts Just Works for any device, as a strap's
    /// firmware does. bluetoothd asks the default agent to confirm a pairing a remote device
    /// starts (LE Secure Connections has the responder confirm); with none it refuses the
    /// pairing with `AuthenticationFailed`. Each question is logged with its device, so a test
    /// can tell the strap's side from the gateway's (`/org/bluez/hci1/…` against `hci0`).
    private var agent: PairingAgent {
        PairingAgent(connection: connection, path: "/org/edgegateway/agent", accepting: { _ in true }) { request in
            PeripheralLog.event("agent", "\"accepted\":\"\(request.method)\",\"device\":\"\(request.device)\"")
        }
    }

    /// Each registration that bluetoothd already holds (`AlreadyExists`: a retry after a partial
    /// registration, or a name change seen late) counts as done.
    private func register() async throws {
        try await Self.unlessAlreadyThere { try await agent.register(asDefault: true) }
        _ = try await connection.call(
            destination: BlueZName.service, path: adapterPath, interface: BlueZName.properties, member: "Set",
            [.string(BlueZName.adapter), .string("Powered"), .variant(.boolean(true))])
        for (interface, member, object) in [
            ("org.bluez.GattManager1", "RegisterApplication", GattApplication.root),
            ("org.bluez.LEAdvertisingManager1", "RegisterAdvertisement", Advertisement.path),
        ] {
            try await Self.unlessAlreadyThere {
                _ = try await connection.call(
                    destination: BlueZName.service, path: adapterPath, interface: interface, member: member,
                    [.objectPath(object), .properties([:])])
            }
        }
    }

    private static func unlessAlreadyThere(_ registration: () async throws -> Void) async throws {
        do {
            try await registration()
        } catch {
            guard errorName(error) == "org.bluez.Error.AlreadyExists" else { throw error }
        }
    }

    private static func errorName(_ error: any Error) -> String {
        (error as? DBusError)?.name ?? (error as? BlueZError)?.name ?? "unknown"
    }
}
