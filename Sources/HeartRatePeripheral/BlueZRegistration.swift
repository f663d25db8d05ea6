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
    /// controllers back, so a refused registration is tried again every half second for up to
    /// `patience`. The first registration must succeed at once: the stack is up when the
    /// peripheral starts.
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
            while true {
                do {
                    try await register()
                    PeripheralLog.event("registered-again")
                    break
                } catch {
                    guard clock.now < deadline else { throw error }
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
        }
    }

    private func register() async throws(DBusError) {
        try await PairingAgent(connection: connection).register()
        _ = try await connection.call(
            destination: BlueZName.service, path: adapterPath, interface: BlueZName.properties, member: "Set",
            [.string(BlueZName.adapter), .string("Powered"), .variant(.boolean(true))])
        _ = try await connection.call(
            destination: BlueZName.service, path: adapterPath, interface: "org.bluez.GattManager1",
            member: "RegisterApplication", [.objectPath(GattApplication.root), .properties([:])])
        _ = try await connection.call(
            destination: BlueZName.service, path: adapterPath, interface: "org.bluez.LEAdvertisingManager1",
            member: "RegisterAdvertisement", [.objectPath(Advertisement.path), .properties([:])])
    }
}
