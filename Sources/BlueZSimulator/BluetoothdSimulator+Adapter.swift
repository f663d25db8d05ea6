import BlueZ
import DBus
import GATTHeartRate

/// `org.bluez.Adapter1` on `/org/bluez/hci0`: power and discovery.
extension BluetoothdSimulator {
    /// Services every simulated strap advertises.
    static let advertisedServices: [BluetoothUUID] = [.heartRateService, .batteryService, .deviceInformationService]

    func adapterInterface() -> DBusExportedInterface {
        let description = DBusInterfaceDescription(
            name: BlueZName.adapter,
            methods: [
                DBusMethodDescription("StartDiscovery") { [weak self] call in
                    try await self.orGone().startDiscovery(for: call.sender)
                    return []
                },
                DBusMethodDescription("StopDiscovery") { [weak self] call in
                    try await self.orGone().stopDiscovery(for: call.sender)
                    return []
                },
                DBusMethodDescription("SetDiscoveryFilter", inputs: [DBusArgument("properties", "a{sv}")]) { [weak self] call in
                    try await self.orGone().setDiscoveryFilter(try DiscoveryFilter(call.arguments[0]), for: call.sender)
                    return []
                },
                DBusMethodDescription("GetDiscoveryFilters", outputs: [DBusArgument("filters", "as")]) { _ in
                    [.strings(["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"])]
                },
                DBusMethodDescription("RemoveDevice", inputs: [DBusArgument("device", "o")]) { [weak self] call in
                    try await self.orGone().removeDevice(at: call.arguments[0].objectPath ?? .root)
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
                    await (try self.orGone()).applyPowered(value.bool ?? false)
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
                "Address": .string(Self.adapterAddress), "AddressType": .string("public"), "Name": .string("edge-gateway-sim"),
                "Alias": .string("edge-gateway-sim"), "Class": .uint32(0), "Powered": .boolean(adapterPowered),
                "Discoverable": .boolean(false), "Pairable": .boolean(true), "Discovering": .boolean(false),
                "UUIDs": .strings(["00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb"]),
                "Modalias": .string("usb:v1D6Bp0246d0542"), "Roles": .strings(["central", "peripheral"]),
            ])
    }

    func setDiscoveryFilter(_ filter: DiscoveryFilter, for client: String) {
        discoveryFilters[client] = filter
        if discoverySessions[client] != nil { discoverySessions[client] = filter }
    }

    func startDiscovery(for client: String) async throws(DBusError) {
        guard adapterPowered else { throw BlueZReply.notReady }
        guard discoverySessions[client] == nil else { throw BlueZReply.discoveryInProgress }
        discoverySessions[client] = discoveryFilters[client] ?? DiscoveryFilter()
        guard discoveryTask == nil else { return }
        await setAdapterProperties(["Discovering": .boolean(true)])
        discoveryTask = Task { [weak self] in
            while !Task.isCancelled, let self, await self.discoverOnce() {
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    func stopDiscovery(for client: String) async throws(DBusError) {
        guard discoverySessions.removeValue(forKey: client) != nil else { throw BlueZReply.noDiscoveryStarted }
        if discoverySessions.isEmpty { await discoveryStopped() }
    }

    func discoveryStopped() async {
        discoveryTask?.cancel()
        discoveryTask = nil
        await setAdapterProperties(["Discovering": .boolean(false)])
    }

    /// One discovery round: straps in range that any session's filter accepts get a device
    /// object (or a fresh RSSI). Returns whether discovery is still running.
    private func discoverOnce() async -> Bool {
        guard !discoverySessions.isEmpty, connection != nil else { return false }
        let filters = Array(discoverySessions.values)
        for address in straps.keys.sorted() {
            guard let state = straps[address], state.inRange, filters.contains(where: { $0.matches(state.strap) }) else { continue }
            if state.hasObject {
                let jitter = Int16.random(in: -3 ... 3)
                await connection?.setProperties(
                    Self.devicePath(address), interface: BlueZName.device,
                    ["RSSI": .int16(state.strap.rssi + jitter)])
            } else {
                await exportDevice(address)
            }
        }
        return true
    }

    func applyPowered(_ powered: Bool) async {
        adapterPowered = powered
        if !powered {
            for address in straps.keys where straps[address]!.connected { await disconnect(address) }
            discoverySessions.removeAll()
            if discoveryTask != nil { await discoveryStopped() }
        }
        await setAdapterProperties(["Powered": .boolean(powered)])
    }

    func removeDevice(at path: DBusObjectPath) async throws(DBusError) {
        guard let address = straps.keys.first(where: { Self.devicePath($0) == path }), straps[address]!.hasObject else {
            throw BlueZReply.doesNotExist
        }
        if straps[address]!.connected { await disconnect(address) }
        straps[address]?.paired = false
        straps[address]?.trusted = false
        straps[address]?.remembered = false
        straps[address]?.hasObject = false
        await connection?.unexport(path)
    }

    private func setAdapterProperties(_ changes: [String: DBusValue]) async {
        await connection?.setProperties(Self.adapterPath, interface: BlueZName.adapter, changes)
    }
}

extension Optional where Wrapped == BluetoothdSimulator {
    /// The simulator, or the error a call gets while it is shutting down.
    func orGone() throws(DBusError) -> BluetoothdSimulator {
        guard let self else { throw BlueZReply.gone }
        return self
    }
}
