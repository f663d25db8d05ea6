import BlueZ
import DBus
import GATTHeartRate

/// `StrapRadio` over bluetoothd's D-Bus API: one shared `BlueZClient` and discovery sessions
/// for all supervisors. BlueZ errors become `SupervisorError`s with BlueZ's own judgement
/// of whether they are transient.
package struct BlueZStrapRadio: StrapRadio {
    let client: BlueZClient
    let discovery: DiscoverySessions

    /// How long values that come over `PropertiesChanged` wait on the bus between the bus
    /// thread's reads while they come (the fleet sets it on the client's connection): ten a
    /// second then cost that thread one wake, not ten. A strap's stall deadline allows it.
    static let valueRest: Duration = .seconds(1)

    /// The radio over `client`, sharing `discovery` with every supervisor on the same bus.
    package init(client: BlueZClient, discovery: DiscoverySessions) {
        self.client = client
        self.discovery = discovery
    }

    /// Read from the client's mirror: no D-Bus call.
    package func adapters() async -> [RadioAdapter]? {
        await client.radioAdapters()
    }

    /// Waits on the mirror for an adapter to appear, go, or change power (or bluetoothd to come
    /// or go), or for `timeout`.
    package func adaptersChange(from current: [RadioAdapter]?, timeout: Duration) async {
        _ = await client.wait(timeout: timeout) { $0.radioAdapters() != current }
    }

    /// The RSSI of the strap's device object under `adapter` (set while discovery sees it) and
    /// its `Paired`; an adapter without such an object has neither.
    package func sighting(of strap: BluetoothAddress, on adapter: String) async -> StrapSighting {
        await client.sighting(of: strap.description, on: adapter)
    }

    /// Sets `Powered` on `adapter`; does nothing when there is no such adapter. A refusal is thrown
    /// as a `SupervisorError`, transient when BlueZ says so.
    package func powerOn(_ adapter: String) async throws {
        guard let found = await client.adapter(named: adapter) else { return }
        do {
            try await found.setPowered(true)
        } catch {
            throw SupervisorError(error)
        }
    }

    /// The device bluetoothd already has for `strap` on `adapter` (remembered or recently seen),
    /// without discovery; nil when it has none or the adapter is gone.
    package func knownLink(to strap: BluetoothAddress, on adapter: String) async -> (any StrapLink)? {
        guard let found = await client.adapter(named: adapter),
            let device = await client.device(address: strap.description, on: found)
        else { return nil }
        return BlueZStrapLink(device: device)
    }

    /// Runs a shared discovery session on `adapter` until the strap's device appears; throws a
    /// transient `SupervisorError` when it does not within `timeout` or the adapter is gone.
    package func discover(_ strap: BluetoothAddress, on adapter: String, timeout: Duration) async throws -> any StrapLink {
        guard let found = await client.adapter(named: adapter) else {
            throw SupervisorError("adapter \(adapter) went away while looking for \(strap)", transient: true)
        }
        let client = client
        let text = strap.description
        do {
            return try await discovery.whileDiscovering(on: found) {
                guard await client.wait(timeout: timeout, until: { $0.device(address: text, on: found) != nil }),
                    let device = await client.device(address: text, on: found)
                else {
                    throw SupervisorError("\(text) was not found by discovery: is the strap worn, charged and in range?", transient: true)
                }
                return BlueZStrapLink(device: device)
            }
        } catch let error as BlueZError {
            throw SupervisorError(error)
        }
    }
}

/// `StrapLink` over a BlueZ device object.
struct BlueZStrapLink: StrapLink {
    let device: Device

    func connect() async throws {
        do {
            try await device.connect()
        } catch {
            throw SupervisorError(error)
        }
    }

    func servicesResolved(within timeout: Duration) async -> Bool {
        await device.waitForServicesResolved(timeout: timeout)
    }

    func details() async -> DeviceDetails {
        await StrapDetails.read(device)
    }

    func heartRateNotifications(
        within timeout: Duration, deliver: @escaping GattCharacteristic.NotificationHandler
    ) async throws -> StrapNotifications? {
        guard let measurement = await device.waitForCharacteristic(BluetoothUUID.heartRateMeasurement.uuidString, timeout: timeout) else {
            return nil
        }
        do {
            let notifications = try await measurement.notifications(handler: deliver)
            return StrapNotifications(
                ended: { for await _ in notifications.frames {} }, stop: { notifications.stop() },
                readLag: notifications.transport == .propertiesChanged ? BlueZStrapRadio.valueRest : NotificationSockets.readLag)
        } catch {
            throw SupervisorError(error)
        }
    }

    func disconnect() async {
        try? await device.disconnect()
    }
}

extension BlueZClient {
    /// The adapters in the client's current view, nil while bluetoothd is not on the bus.
    func radioAdapters() -> [RadioAdapter]? {
        guard isDaemonRunning else { return nil }
        return adapters().map { adapter in
            RadioAdapter(
                name: adapter.name, address: property("Address", of: BlueZName.adapter, at: adapter.path)?.string,
                powered: property("Powered", of: BlueZName.adapter, at: adapter.path)?.bool == true)
        }.sorted { $0.name < $1.name }
    }

    /// What the device `address` under the adapter `name` shows of signal and bond.
    func sighting(of address: String, on name: String) -> StrapSighting {
        guard let adapter = adapter(named: name), let device = device(address: address, on: adapter) else {
            return StrapSighting(adapter: name)
        }
        return StrapSighting(
            adapter: name, rssi: property("RSSI", of: BlueZName.device, at: device.path)?.integer,
            bonded: property("Paired", of: BlueZName.device, at: device.path)?.bool == true)
    }
}
