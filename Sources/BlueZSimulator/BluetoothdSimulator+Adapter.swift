import BlueZ
import DBus
import GATTHeartRate

/// `org.bluez.Adapter1` on `/org/bluez/hciN`: power and discovery, per adapter.
extension BluetoothdSimulator {
    /// Services every simulated strap advertises.
    static let advertisedServices: [BluetoothUUID] = [.heartRateService, .batteryService, .deviceInformationService]

    /// Exports adapter `name` and the devices stored on it (bonded, trusted or cached ones).
    func exportAdapter(_ name: String) async {
        guard let state = adapters[name] else { return }
        await connection?.export(state.adapter.path, [adapterInterface(state)])
        for address in straps.keys.sorted() where straps[address]!.isStored && straps[address]!.home == name {
            await exportDevice(address, on: name)
        }
    }

    private func adapterInterface(_ state: AdapterState) -> DBusExportedInterface {
        let name = state.adapter.name
        let description = DBusInterfaceDescription(
            name: BlueZName.adapter,
            methods: [
                DBusMethodDescription("StartDiscovery") { [weak self] call in
                    try await self.orGone().startDiscovery(for: call.sender, on: name)
                    return []
                },
                DBusMethodDescription("StopDiscovery") { [weak self] call in
                    try await self.orGone().stopDiscovery(for: call.sender, on: name)
                    return []
                },
                DBusMethodDescription("SetDiscoveryFilter", inputs: [DBusArgument("properties", "a{sv}")]) { [weak self] call in
                    try await self.orGone().setDiscoveryFilter(try DiscoveryFilter(call.arguments[0]), for: call.sender, on: name)
                    return []
                },
                DBusMethodDescription("GetDiscoveryFilters", outputs: [DBusArgument("filters", "as")]) { _ in
                    [.strings(["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"])]
                },
                DBusMethodDescription("RemoveDevice", inputs: [DBusArgument("device", "o")]) { [weak self] call in
                    try await self.orGone().removeDevice(at: call.arguments[0].objectPath ?? .root, on: name)
                    return []
                },
            ],
            properties: [
                DBusPropertyDescription("Address", "s"),
                DBusPropertyDescription("AddressType", "s"),
                DBusPropertyDescription("Name", "s"),
                DBusPropertyDescription("Alias", "s"),
                DBusPropertyDescription("Class", "u"),
                DBusPropertyDescription("Powered", "b") { [weak self] value, _ in
                    await (try self.orGone()).applyPowered(value.bool ?? false, on: name)
                },
                DBusPropertyDescription("Discoverable", "b"),
                DBusPropertyDescription("Pairable", "b"),
                DBusPropertyDescription("Discovering", "b"),
                DBusPropertyDescription("UUIDs", "as"),
                DBusPropertyDescription("Modalias", "s"),
                DBusPropertyDescription("Roles", "as"),
            ])
        return DBusExportedInterface(
            description,
            properties: [
                "Address": .string(state.adapter.address), "AddressType": .string("public"), "Name": .string("edge-gateway-sim"),
                "Alias": .string("edge-gateway-sim"), "Class": .uint32(0), "Powered": .boolean(state.powered),
                "Discoverable": .boolean(false), "Pairable": .boolean(true), "Discovering": .boolean(false),
                "UUIDs": .strings(["00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb"]),
                "Modalias": .string("usb:v1D6Bp0246d0542"), "Roles": .strings(["central", "peripheral"]),
            ])
    }

    func setDiscoveryFilter(_ filter: DiscoveryFilter, for client: String, on adapter: String) {
        adapters[adapter]?.discoveryFilters[client] = filter
        if adapters[adapter]?.discoverySessions[client] != nil { adapters[adapter]?.discoverySessions[client] = filter }
    }

    func startDiscovery(for client: String, on adapter: String) async throws(DBusError) {
        guard let state = adapters[adapter], state.powered else { throw BlueZReply.notReady }
        guard state.discoverySessions[client] == nil else { throw BlueZReply.discoveryInProgress }
        adapters[adapter]?.discoverySessions[client] = state.discoveryFilters[client] ?? DiscoveryFilter()
        guard state.discoveryTask == nil else { return }
        await setAdapterProperties(adapter, ["Discovering": .boolean(true)])
        adapters[adapter]?.discoveryTask = Task { [weak self] in
            while !Task.isCancelled, let self, await self.discoverOnce(on: adapter) {
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    func stopDiscovery(for client: String, on adapter: String) async throws(DBusError) {
        guard adapters[adapter]?.discoverySessions.removeValue(forKey: client) != nil else { throw BlueZReply.noDiscoveryStarted }
        if adapters[adapter]?.discoverySessions.isEmpty == true { await discoveryStopped(on: adapter) }
    }

    func discoveryStopped(on adapter: String) async {
        adapters[adapter]?.discoveryTask?.cancel()
        adapters[adapter]?.discoveryTask = nil
        await setAdapterProperties(adapter, ["Discovering": .boolean(false)])
    }

    /// One discovery round on `adapter`: straps in range that it hears and any session's filter
    /// accepts get a device object under it (or a fresh RSSI). A strap holding a link through
    /// another adapter does not advertise, so it is not seen there. Returns whether discovery is
    /// still running.
    private func discoverOnce(on adapter: String) async -> Bool {
        guard let sessions = adapters[adapter]?.discoverySessions, !sessions.isEmpty, connection != nil else { return false }
        let filters = Array(sessions.values)
        for address in straps.keys.sorted() {
            guard let state = straps[address], state.inRange, state.via == nil || state.via == adapter,
                let rssi = state.strap.rssi(on: adapter),
                filters.contains(where: { $0.matches(state.strap, rssi: rssi) })
            else { continue }
            if state.objects.contains(adapter) {
                let jitter = Int16.random(in: -3 ... 3)
                await connection?.setProperties(
                    Self.devicePath(address, on: adapter), interface: BlueZName.device, ["RSSI": .int16(rssi + jitter)])
            } else {
                await exportDevice(address, on: adapter)
            }
        }
        return true
    }

    func applyPowered(_ powered: Bool, on adapter: String) async {
        guard adapters[adapter] != nil else { return }
        adapters[adapter]?.powered = powered
        if !powered {
            for address in straps.keys where straps[address]!.via == adapter { await disconnect(address) }
            adapters[adapter]?.discoverySessions.removeAll()
            if adapters[adapter]?.discoveryTask != nil { await discoveryStopped(on: adapter) }
        }
        await setAdapterProperties(adapter, ["Powered": .boolean(powered)])
    }

    func removeDevice(at path: DBusObjectPath, on adapter: String) async throws(DBusError) {
        guard let address = straps.keys.first(where: { Self.devicePath($0, on: adapter) == path }),
            straps[address]!.objects.contains(adapter)
        else {
            throw BlueZReply.doesNotExist
        }
        if straps[address]!.via == adapter { await disconnect(address) }
        if straps[address]!.home == adapter {
            straps[address]?.paired = false
            straps[address]?.trusted = false
            straps[address]?.remembered = false
        }
        straps[address]?.objects.remove(adapter)
        await connection?.unexport(path)
    }

    private func setAdapterProperties(_ adapter: String, _ changes: [String: DBusValue]) async {
        guard let path = adapters[adapter]?.adapter.path else { return }
        await connection?.setProperties(path, interface: BlueZName.adapter, changes)
    }
}

extension Optional where Wrapped == BluetoothdSimulator {
    /// The simulator, or the error a call gets while it is shutting down.
    func orGone() throws(DBusError) -> BluetoothdSimulator {
        guard let self else { throw BlueZReply.gone }
        return self
    }
}
