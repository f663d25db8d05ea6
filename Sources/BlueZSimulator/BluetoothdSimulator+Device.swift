import BlueZ
import DBus
import GATTHeartRate

/// `org.bluez.Device1` objects: connecting, pairing, trust, and the link going away.
extension BluetoothdSimulator {
    func exportDevice(_ address: BluetoothAddress) async {
        guard let state = straps[address], !state.hasObject else { return }
        straps[address]?.hasObject = true
        await connection?.export(Self.devicePath(address), [deviceInterface(state)])
    }

    private func deviceInterface(_ state: StrapState) -> DBusExportedInterface {
        let address = state.strap.address
        let description = DBusInterfaceDescription(
            name: BlueZName.device,
            methods: [
                DBusMethodDescription("Connect") { [weak self] _ in
                    try await self.orGone().connect(address)
                    return []
                },
                DBusMethodDescription("Disconnect") { [weak self] _ in
                    try await self.orGone().disconnectRequested(address)
                    return []
                },
                DBusMethodDescription("Pair") { [weak self] call in
                    try await self.orGone().pair(address, caller: call.sender)
                    return []
                },
                DBusMethodDescription("CancelPairing") { _ in [] },
            ],
            properties: [
                DBusPropertyDescription("Address", "s"),
                DBusPropertyDescription("AddressType", "s"),
                DBusPropertyDescription("Name", "s"),
                DBusPropertyDescription("Alias", "s") { [weak self] value, _ in
                    await (try self.orGone()).setDeviceProperties(address, ["Alias": value])
                },
                DBusPropertyDescription("Appearance", "q"),
                DBusPropertyDescription("Icon", "s"),
                DBusPropertyDescription("Paired", "b"),
                DBusPropertyDescription("Bonded", "b"),
                DBusPropertyDescription("Trusted", "b") { [weak self] value, _ in
                    try await self.orGone().setTrusted(address, value.bool ?? false)
                },
                DBusPropertyDescription("Blocked", "b") { [weak self] value, _ in
                    await (try self.orGone()).setDeviceProperties(address, ["Blocked": value])
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
        return DBusExportedInterface(
            description,
            properties: [
                "Address": .string(strap.address.description), "AddressType": .string("random"),
                "Name": .string(strap.name), "Alias": .string(strap.name), "Appearance": .uint16(0x0341),
                "Icon": .string("heart-rate-sensor"), "Paired": .boolean(state.paired), "Bonded": .boolean(state.paired),
                "Trusted": .boolean(state.trusted), "Blocked": .boolean(false), "LegacyPairing": .boolean(false),
                "RSSI": .int16(strap.rssi), "Connected": .boolean(false),
                "UUIDs": .strings(Self.advertisedServices.map(\.uuidString)),
                "Adapter": .objectPath(Self.adapterPath),
                "ManufacturerData": .dictionary(
                    keyType: "q", valueType: "v",
                    [
                        DBusDictionaryEntry(key: .uint16(strap.companyID), value: .variant(.bytes([0x00, 0x3A, 0x01])))
                    ]),
                "ServicesResolved": .boolean(false),
            ])
    }

    func setDeviceProperties(_ address: BluetoothAddress, _ changes: [String: DBusValue]) async {
        await connection?.setProperties(Self.devicePath(address), interface: BlueZName.device, changes)
    }

    private func setTrusted(_ address: BluetoothAddress, _ trusted: Bool) async throws(DBusError) {
        straps[address]?.trusted = trusted
        await setDeviceProperties(address, ["Trusted": .boolean(trusted)])
    }

    // MARK: Connecting

    /// `Connect()`: reports `Connected` and replies once the link is up; the GATT objects and
    /// `ServicesResolved` follow, in that order, as bluetoothd does (the kernel's connection
    /// event sets `Connected` before the ATT channel's callback sends the reply and starts the
    /// GATT browse: `att_connect_cb` in bluez's src/device.c). bleak relies on that order: it
    /// reads `Connected` false after the reply as a link already lost.
    func connect(_ address: BluetoothAddress) async throws(DBusError) {
        guard let state = straps[address], state.hasObject else { throw BlueZReply.doesNotExist }
        guard adapterPowered else { throw BlueZReply.notReady }
        if state.connected { return }
        guard !state.connecting else { throw BlueZReply.inProgress }
        if let failure = state.failNextConnect {
            straps[address]?.failNextConnect = nil
            throw failure
        }
        straps[address]?.connecting = true
        defer { straps[address]?.connecting = false }
        try? await Task.sleep(for: .milliseconds(30))
        guard straps[address]?.inRange == true, adapterPowered, connection != nil else {
            throw BlueZReply.connectionAborted
        }
        straps[address]?.connected = true
        await setDeviceProperties(address, ["Connected": .boolean(true)])
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(20))
            await self?.resolveServices(address)
        }
    }

    private func resolveServices(_ address: BluetoothAddress) async {
        guard straps[address]?.connected == true, straps[address]?.gatt == nil else { return }
        if let lag = straps[address]?.gattLag {
            await setDeviceProperties(address, ["ServicesResolved": .boolean(true)])
            try? await Task.sleep(for: lag)
            guard straps[address]?.connected == true else { return }
            await exportGatt(address)
        } else {
            await exportGatt(address)
            await setDeviceProperties(address, ["ServicesResolved": .boolean(true)])
        }
        startEmitter(address)
    }

    private func disconnectRequested(_ address: BluetoothAddress) async throws(DBusError) {
        guard straps[address]?.connected == true else { throw BlueZReply.notConnected }
        await disconnect(address)
    }

    /// The link is gone (requested, dropped, adapter off): sessions end, GATT objects vanish.
    func disconnect(_ address: BluetoothAddress) async {
        let gatt = straps[address]?.gatt
        endLink(address)
        await setDeviceProperties(address, ["ServicesResolved": .boolean(false), "Connected": .boolean(false)])
        if let gatt {
            for path in gatt.all.reversed() { await connection?.unexport(path) }
            await connection?.unexport(Self.devicePath(address), interfaces: [BlueZName.battery])
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
        straps[address]?.connected = false
        straps[address]?.gatt = nil
    }

    // MARK: Pairing

    /// `Pair()`: connects first if needed; Just Works straps pair (the kernel does not ask the
    /// initiator's agent to confirm Just Works, so no agent is called); others refuse with
    /// `AuthenticationFailed`. The agent bluez would have used is recorded (`pairingAgent(for:)`).
    private func pair(_ address: BluetoothAddress, caller: String) async throws(DBusError) {
        guard let state = straps[address], state.hasObject else { throw BlueZReply.doesNotExist }
        pairingAgents[address] = agentForPairing(by: caller)
        guard !state.paired else { throw DBusError(name: "org.bluez.Error.AlreadyExists", message: "Already Paired") }
        if !state.connected { try await connect(address) }
        guard state.strap.pairing == .justWorks else { throw BlueZReply.authenticationFailed }
        straps[address]?.paired = true
        await setDeviceProperties(address, ["Paired": .boolean(true), "Bonded": .boolean(true)])
    }
}
