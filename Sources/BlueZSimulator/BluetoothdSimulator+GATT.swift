import BlueZ
import DBus
import GATTHeartRate
import Glibc

/// GATT objects of a connected strap, and the notifications of its 0x2A37.
extension BluetoothdSimulator {
    /// The characteristics the simulator serves.
    enum CharacteristicKind: Sendable {
        case measurement, bodySensorLocation, controlPoint, batteryLevel, manufacturerName, modelNumber

        var uuid: BluetoothUUID {
            switch self {
            case .measurement: .heartRateMeasurement
            case .bodySensorLocation: .bodySensorLocation
            case .controlPoint: .heartRateControlPoint
            case .batteryLevel: .batteryLevel
            case .manufacturerName: .manufacturerName
            case .modelNumber: .modelNumber
            }
        }

        var flags: [String] {
            switch self {
            case .measurement: ["notify"]
            case .controlPoint: ["write"]
            case .batteryLevel: ["read", "notify"]
            case .bodySensorLocation, .manufacturerName, .modelNumber: ["read"]
            }
        }
    }

    func exportGatt(_ address: BluetoothAddress) async {
        guard let state = straps[address], let adapter = state.via, let connection else { return }
        let device = Self.devicePath(address, on: adapter)
        let gatt = GattLayout(device: device, generation: generation)
        straps[address]?.gatt = gatt
        let services: [(DBusObjectPath, BluetoothUUID, [(DBusObjectPath, CharacteristicKind)])] = [
            (
                gatt.heartRateService, .heartRateService,
                [
                    (gatt.measurement, .measurement), (gatt.bodySensorLocation, .bodySensorLocation),
                    (gatt.controlPoint, .controlPoint),
                ]
            ),
            (gatt.batteryService, .batteryService, [(gatt.batteryLevel, .batteryLevel)]),
            (
                gatt.deviceInformationService, .deviceInformationService,
                [
                    (gatt.manufacturerName, .manufacturerName), (gatt.modelNumber, .modelNumber),
                ]
            ),
        ]
        for (servicePath, serviceUUID, characteristics) in services {
            await connection.export(
                servicePath,
                [
                    DBusExportedInterface(
                        Self.gattServiceInterface,
                        properties: [
                            "UUID": .string(serviceUUID.uuidString), "Device": .objectPath(device), "Primary": .boolean(true),
                            "Includes": .array(elementType: "o", []),
                        ])
                ])
            for (path, kind) in characteristics {
                var properties: [String: DBusValue] = [
                    "UUID": .string(kind.uuid.uuidString), "Service": .objectPath(servicePath),
                    "Value": .bytes([]), "Flags": .strings(kind.flags), "MTU": .uint16(23),
                ]
                if kind.flags.contains("notify") { properties["Notifying"] = .boolean(false) }
                if kind == .measurement && state.strap.offersAcquireNotify { properties["NotifyAcquired"] = .boolean(false) }
                await connection.export(path, [DBusExportedInterface(characteristicInterface(address, kind), properties: properties)])
            }
        }
        await connection.export(
            device,
            [
                DBusExportedInterface(
                    Self.batteryInterface,
                    properties: [
                        "Percentage": .byte(state.strap.batteryPercent), "Source": .string("GATT Battery Service"),
                    ])
            ])
    }

    static let gattServiceInterface = DBusInterfaceDescription(
        name: BlueZName.gattService,
        properties: [
            DBusPropertyDescription("UUID", "s"), DBusPropertyDescription("Device", "o"),
            DBusPropertyDescription("Primary", "b"), DBusPropertyDescription("Includes", "ao"),
        ])

    static let batteryInterface = DBusInterfaceDescription(
        name: BlueZName.battery,
        properties: [DBusPropertyDescription("Percentage", "y"), DBusPropertyDescription("Source", "s")])

    private func characteristicInterface(_ address: BluetoothAddress, _ kind: CharacteristicKind) -> DBusInterfaceDescription {
        DBusInterfaceDescription(
            name: BlueZName.gattCharacteristic,
            methods: [
                DBusMethodDescription("ReadValue", inputs: [DBusArgument("options", "a{sv}")], outputs: [DBusArgument("value", "ay")]) { [weak self] _ in
                    [.bytes(try await self.orGone().read(kind, of: address))]
                },
                DBusMethodDescription("WriteValue", inputs: [DBusArgument("value", "ay"), DBusArgument("options", "a{sv}")]) { [weak self] call in
                    try await self.orGone().write(call.arguments[0].bytes ?? [], to: kind, of: address)
                    return []
                },
                DBusMethodDescription("StartNotify") { [weak self] call in
                    try await self.orGone().startNotify(kind, of: address, sender: call.sender)
                    return []
                },
                DBusMethodDescription("StopNotify") { [weak self] call in
                    try await self.orGone().stopNotify(kind, of: address, sender: call.sender)
                    return []
                },
                DBusMethodDescription(
                    "AcquireNotify", inputs: [DBusArgument("options", "a{sv}")],
                    outputs: [DBusArgument("fd", "h"), DBusArgument("mtu", "q")]
                ) { [weak self] call in
                    try await self.orGone().acquireNotify(kind, of: address, sender: call.sender)
                },
            ],
            properties: [
                DBusPropertyDescription("UUID", "s"), DBusPropertyDescription("Service", "o"),
                DBusPropertyDescription("Value", "ay"), DBusPropertyDescription("Notifying", "b"),
                DBusPropertyDescription("Flags", "as"), DBusPropertyDescription("NotifyAcquired", "b"),
                DBusPropertyDescription("MTU", "q"),
            ])
    }

    private func path(of kind: CharacteristicKind, _ gatt: GattLayout) -> DBusObjectPath {
        switch kind {
        case .measurement: gatt.measurement
        case .bodySensorLocation: gatt.bodySensorLocation
        case .controlPoint: gatt.controlPoint
        case .batteryLevel: gatt.batteryLevel
        case .manufacturerName: gatt.manufacturerName
        case .modelNumber: gatt.modelNumber
        }
    }

    private func connectedGatt(_ address: BluetoothAddress) throws(DBusError) -> GattLayout {
        guard let gatt = straps[address]?.gatt, straps[address]?.connected == true else { throw BlueZReply.notConnected }
        return gatt
    }

    // MARK: Read and write

    /// `ReadValue`: the value, which bluetoothd also publishes as a `Value` change.
    private func read(_ kind: CharacteristicKind, of address: BluetoothAddress) async throws(DBusError) -> [UInt8] {
        let gatt = try connectedGatt(address)
        guard let strap = straps[address]?.strap, kind.flags.contains("read") else { throw BlueZReply.readNotPermitted }
        let value: [UInt8] =
            switch kind {
            case .bodySensorLocation: [strap.bodyLocation.rawValue]
            case .batteryLevel: [strap.batteryPercent]
            case .manufacturerName: Array(strap.manufacturer.utf8)
            case .modelNumber: Array(strap.model.utf8)
            case .measurement, .controlPoint: []
            }
        await connection?.setProperties(path(of: kind, gatt), interface: BlueZName.gattCharacteristic, ["Value": .bytes(value)], alwaysEmit: true)
        return value
    }

    /// `WriteValue`: only the control point accepts writes, and only its defined command.
    private func write(_ value: [UInt8], to kind: CharacteristicKind, of address: BluetoothAddress) throws(DBusError) {
        _ = try connectedGatt(address)
        guard kind == .controlPoint else { throw BlueZReply.writeNotPermitted }
        guard value == HeartRateControlPointCommand.resetEnergyExpended.encoded else {
            throw BlueZReply.attError(HeartRateControlPointCommand.valueNotSupported)
        }
    }

    // MARK: Notify sessions

    private func startNotify(_ kind: CharacteristicKind, of address: BluetoothAddress, sender: String) async throws(DBusError) {
        let gatt = try connectedGatt(address)
        guard kind.flags.contains("notify") else { throw BlueZReply.notSupported }
        guard kind == .measurement else { return }
        guard straps[address]?.acquired == nil else { throw BlueZReply.notifyAcquired }
        straps[address]?.notifySessions.insert(sender)
        await connection?.setProperties(gatt.measurement, interface: BlueZName.gattCharacteristic, ["Notifying": .boolean(true)])
    }

    private func stopNotify(_ kind: CharacteristicKind, of address: BluetoothAddress, sender: String) async throws(DBusError) {
        _ = try connectedGatt(address)
        guard kind == .measurement, straps[address]?.notifySessions.contains(sender) == true else { throw BlueZReply.noNotifySession }
        await endNotifySession(address, sender: sender)
    }

    func endNotifySession(_ address: BluetoothAddress, sender: String) async {
        straps[address]?.notifySessions.remove(sender)
        if let acquired = straps[address]?.acquired, acquired.owner == sender { await releaseAcquired(address) }
        guard let gatt = straps[address]?.gatt, straps[address]?.notifySessions.isEmpty == true,
            straps[address]?.acquired == nil
        else { return }
        await connection?.setProperties(gatt.measurement, interface: BlueZName.gattCharacteristic, ["Notifying": .boolean(false)])
    }

    /// `AcquireNotify`: a `SOCK_SEQPACKET` socket carrying one notification per packet.
    private func acquireNotify(_ kind: CharacteristicKind, of address: BluetoothAddress, sender: String) async throws(DBusError) -> [DBusValue] {
        let gatt = try connectedGatt(address)
        guard kind == .measurement, straps[address]?.strap.offersAcquireNotify == true else { throw BlueZReply.notSupported }
        guard straps[address]?.acquired == nil else { throw BlueZReply.notifyAcquired }
        guard straps[address]?.notifySessions.isEmpty == true else { throw BlueZReply.inProgress }
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw DBusError(name: "org.bluez.Error.Failed", message: String(cString: strerror(errno)))
        }
        straps[address]?.acquired = (fds[0], sender)
        await connection?.setProperties(
            gatt.measurement, interface: BlueZName.gattCharacteristic,
            ["NotifyAcquired": .boolean(true), "Notifying": .boolean(true)])
        return [.unixFD(DBusFileDescriptor(takingOwnershipOf: fds[1])), .uint16(23)]
    }

    private func releaseAcquired(_ address: BluetoothAddress) async {
        guard let acquired = straps[address]?.acquired else { return }
        closeSocket(acquired.socket)
        straps[address]?.acquired = nil
        if let gatt = straps[address]?.gatt {
            await connection?.setProperties(
                gatt.measurement, interface: BlueZName.gattCharacteristic,
                ["NotifyAcquired": .boolean(false), "Notifying": .boolean(!(straps[address]?.notifySessions.isEmpty ?? true))])
        }
    }

    private enum SendResult { case sent, full, closed }

    /// Sends one packet; when the client is slow to read, waits up to 100 ms for room, then
    /// drops the frame, as bluetoothd does when the socket stays full.
    private static func send(_ frame: [UInt8], to socket: Int32) -> SendResult {
        for attempt in 0 ..< 2 {
            let sent = frame.withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if sent == frame.count { return .sent }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK, attempt == 0 else { return sent < 0 ? .closed : .full }
            var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
        return .full
    }

    func closeSocket(_ socket: Int32) {
        close(socket)
    }

    // MARK: Notifications

    func startEmitter(_ address: BluetoothAddress) {
        guard let interval = straps[address]?.strap.notificationInterval else { return }
        straps[address]?.emitter?.cancel()
        straps[address]?.emitter = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                await self.tick(address)
            }
        }
    }

    private func tick(_ address: BluetoothAddress) async {
        guard var state = straps[address], state.connected, !state.stalled,
            state.acquired != nil || !state.notifySessions.isEmpty
        else { return }
        let frame: [UInt8]
        if state.scripted.isEmpty {
            let seconds =
                Double(state.strap.notificationInterval.components.seconds)
                + Double(state.strap.notificationInterval.components.attoseconds) / 1e18
            frame = state.strap.signal.next(seconds: seconds).encoded()
            straps[address]?.strap.signal = state.strap.signal
        } else {
            frame = state.scripted.removeFirst()
            straps[address]?.scripted = state.scripted
        }
        await deliver(frame, to: address)
    }

    /// Sends one notification to every subscriber: the acquired socket and/or a
    /// `PropertiesChanged` for the `StartNotify` sessions.
    func deliver(_ frame: [UInt8], to address: BluetoothAddress) async {
        guard let state = straps[address], state.connected, let gatt = state.gatt else { return }
        var delivered = false
        if let acquired = state.acquired {
            switch Self.send(frame, to: acquired.socket) {
            case .sent: delivered = true
            case .full: straps[address]?.notificationsDropped += 1
            case .closed: await releaseAcquired(address)
            }
        }
        if !state.notifySessions.isEmpty {
            await connection?.setProperties(gatt.measurement, interface: BlueZName.gattCharacteristic, ["Value": .bytes(frame)], alwaysEmit: true)
            delivered = true
        }
        if delivered { straps[address]?.notificationsSent += 1 }
    }
}
