import BlueZ
import DBus
import GATTHeartRate

/// `org.bluez.Device1` objects, one per adapter that knows the strap: connecting, pairing,
/// trust, and the link going away.
extension BluetoothdSimulator {
    func exportDevice(_ address: BluetoothAddress, on adapter: String) async {
        guard let state = straps[address], !state.objects.contains(adapter), adapters[adapter] != nil else { return }
        straps[address]?.objects.insert(adapter)
        await connection?.export(Self.devicePath(address, on: adapter), [deviceInterface(state, on: adapter)])
    }

    private func deviceInterface(_ state: StrapState, on adapter: String) -> DBusExportedInterface {
        let address = state.strap.address
        let description = DBusInterfaceDescription(
            name: BlueZName.device,
            methods: [
                DBusMethodDescription("Connect") { [weak self] _ in
                    try await self.orGone().connect(address, on: adapter)
                    return []
                },
                DBusMethodDescription("Disconnect") { [weak self] _ in
                    try await self.orGone().disconnectRequested(address, on: adapter)
                    return []
                },
                DBusMethodDescription("Pair") { [weak self] call in
                    try await self.orGone().pair(address, on: adapter, caller: call.sender)
                    return []
                },
                DBusMethodDescription("CancelPairing") { _ in [] },
            ],
            properties: [
                DBusPropertyDescription("Address", "s"),
                DBusPropertyDescription("AddressType", "s"),
                DBusPropertyDescription("Name", "s"),
                DBusPropertyDescription("Alias", "s") { [weak self] value, _ in
                    await (try self.orGone()).setDeviceProperties(address, on: adapter, ["Alias": value])
                },
                DBusPropertyDescription("Appearance", "q"),
                DBusPropertyDescription("Icon", "s"),
                DBusPropertyDescription("Paired", "b"),
                DBusPropertyDescription("Bonded", "b"),
                DBusPropertyDescription("Trusted", "b") { [weak self] value, _ in
                    try await self.orGone().setTrusted(address, value.bool ?? false, on: adapter)
                },
                DBusPropertyDescription("Blocked", "b") { [weak self] value, _ in
                    await (try self.orGone()).setDeviceProperties(address, on: adapter, ["Blocked": value])
                },
                DBusPropertyDescription("LegacyPairing", "b"),
                DBusPropertyDescription("RSSI", "n"),
                DBusPropertyDescription("Connected", "b"),
                DBusPropertyDescription("UUIDs", "as"),
                DBusPropertyDescription("Adapter", "o"),
                DBusPropertyDescription("ManufacturerData", "a{qv}"),
                DBusPropertyDescription("ServicesResolved", "b"),
            ])
        let strap = state.strap
        let stored = state.home == adapter
        return DBusExportedInterface(
            description,
            properties: [
                "Address": .string(strap.address.description), "AddressType": .string("random"),
                "Name": .string(strap.name), "Alias": .string(strap.name), "Appearance": .uint16(0x0341),
                "Icon": .string("heart-rate-sensor"), "Paired": .boolean(stored && state.paired),
                "Bonded": .boolean(stored && state.paired), "Trusted": .boolean(stored && state.trusted), "Blocked": .boolean(false),
                "LegacyPairing": .boolean(false),
                "RSSI": .int16(strap.rssi(on: adapter) ?? strap.rssi), "Connected": .boolean(false),
                "UUIDs": .strings(Self.advertisedServices.map(\.uuidString)),
                "Adapter": .objectPath(BlueZName.root.appending(adapter)),
                "ManufacturerData": .dictionary(
                    keyType: "q", valueType: "v",
                    [
                        DBusDictionaryEntry(key: .uint16(strap.companyID), value: .variant(.bytes([0x00, 0x3A, 0x01])))
                    ]),
                "ServicesResolved": .boolean(false),
            ])
    }

    func setDeviceProperties(_ address: BluetoothAddress, on adapter: String, _ changes: [String: DBusValue]) async {
        await connection?.setProperties(Self.devicePath(address, on: adapter), interface: BlueZName.device, changes)
    }

    /// Trust is stored per adapter: trusting the strap through an adapter makes that one its home.
    private func setTrusted(_ address: BluetoothAddress, _ trusted: Bool, on adapter: String) async throws(DBusError) {
        straps[address]?.home = adapter
        straps[address]?.trusted = trusted
        await setDeviceProperties(address, on: adapter, ["Trusted": .boolean(trusted)])
    }

    // MARK: Connecting

    /// `Connect()`: reports `Connected` and replies once the link is up; the GATT objects and
    /// `ServicesResolved` follow, in that order, as bluetoothd does (the kernel's connection
    /// event sets `Connected` before the ATT channel's callback sends the reply and starts the
    /// GATT browse: `att_connect_cb` in bluez's src/device.c). bleak relies on that order: it
    /// reads `Connected` false after the reply as a link already lost.
    ///
    /// A controller already holding its `maxConnections` aborts the attempt, as full ones do
    /// (`le-connection-abort-by-local`); so does one whose strap is linked through another
    /// adapter (it no longer advertises) or out of its reach.
    func connect(_ address: BluetoothAddress, on adapter: String) async throws(DBusError) {
        guard let state = straps[address], state.objects.contains(adapter) else { throw BlueZReply.doesNotExist }
        guard adapters[adapter]?.powered == true else { throw BlueZReply.notReady }
        if state.via == adapter { return }
        guard !state.connecting else { throw BlueZReply.inProgress }
        if let failure = state.failNextConnect {
            straps[address]?.failNextConnect = nil
            throw failure
        }
        straps[address]?.connecting = true
        defer { straps[address]?.connecting = false }
        try? await Task.sleep(for: .milliseconds(30))
        guard let current = straps[address], current.inRange, current.via == nil, current.strap.rssi(on: adapter) != nil,
            adapters[adapter]?.powered == true, connection != nil, !isFull(adapter)
        else {
            throw BlueZReply.connectionAborted
        }
        straps[address]?.via = adapter
        await setDeviceProperties(address, on: adapter, ["Connected": .boolean(true)])
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(20))
            await self?.resolveServices(address)
        }
    }

    private func resolveServices(_ address: BluetoothAddress) async {
        guard let adapter = straps[address]?.via, straps[address]?.gatt == nil else { return }
        if let lag = straps[address]?.gattLag {
            await setDeviceProperties(address, on: adapter, ["ServicesResolved": .boolean(true)])
            try? await Task.sleep(for: lag)
            guard straps[address]?.via == adapter else { return }
            await exportGatt(address)
        } else {
            await exportGatt(address)
            await setDeviceProperties(address, on: adapter, ["ServicesResolved": .boolean(true)])
        }
        startEmitter(address)
    }

    /// Whether `adapter` holds as many links as its controller can.
    private func isFull(_ adapter: String) -> Bool {
        guard let limit = adapters[adapter]?.adapter.maxConnections else { return false }
        return straps.values.filter { $0.via == adapter }.count >= limit
    }

    private func disconnectRequested(_ address: BluetoothAddress, on adapter: String) async throws(DBusError) {
        guard straps[address]?.via == adapter else { throw BlueZReply.notConnected }
        await disconnect(address)
    }

    /// The link is gone (requested, dropped, adapter off): sessions end, GATT objects vanish.
    func disconnect(_ address: BluetoothAddress) async {
        guard let adapter = straps[address]?.via else { return }
        let gatt = straps[address]?.gatt
        endLink(address)
        await setDeviceProperties(address, on: adapter, ["ServicesResolved": .boolean(false), "Connected": .boolean(false)])
        if let gatt {
            for path in gatt.all.reversed() { await connection?.unexport(path) }
            await connection?.unexport(Self.devicePath(address, on: adapter), interfaces: [BlueZName.battery])
        }
    }

    /// Forgets everything tied to the link, without telling the bus (which `stop()` makes moot).
    func endLink(_ address: BluetoothAddress) {
        straps[address]?.emitter?.cancel()
        straps[address]?.emitter = nil
        straps[address]?.notifySessions.removeAll()
        if let acquired = straps[address]?.acquired {
            closeSocket(acquired.socket)
            straps[address]?.acquired = nil
        }
        straps[address]?.via = nil
        straps[address]?.gatt = nil
    }

    // MARK: Pairing

    /// `Pair()`: connects first if needed; Just Works straps pair (the kernel does not ask the
    /// initiator's agent to confirm Just Works, so no agent is called); others refuse with
    /// `AuthenticationFailed`. The agent bluez would have used is recorded (`pairingAgent(for:)`).
    private func pair(_ address: BluetoothAddress, on adapter: String, caller: String) async throws(DBusError) {
        guard let state = straps[address], state.objects.contains(adapter) else { throw BlueZReply.doesNotExist }
        pairingAgents[address] = agentForPairing(by: caller)
        guard !(state.paired && state.home == adapter) else {
            throw DBusError(name: "org.bluez.Error.AlreadyExists", message: "Already Paired")
        }
        if state.via != adapter { try await connect(address, on: adapter) }
        guard state.strap.pairing == .justWorks else { throw BlueZReply.authenticationFailed }
        straps[address]?.home = adapter
        straps[address]?.paired = true
        await setDeviceProperties(address, on: adapter, ["Paired": .boolean(true), "Bonded": .boolean(true)])
    }
}
