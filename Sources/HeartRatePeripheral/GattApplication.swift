import BlueZ
import DBus
import GATTHeartRate

/// The GATT application the peripheral registers with bluetoothd through
/// `org.bluez.GattManager1.RegisterApplication`: Heart Rate (0x180D with 0x2A37 notify and
/// 0x2A38 read) and Battery (0x180F with 0x2A19 read/notify), served from our own exported
/// objects under an ObjectManager, the way bluez's `test/example-gatt-server` does it.
struct GattApplication: Sendable {
    /// The application root bluetoothd calls `GetManagedObjects` on.
    static let root: DBusObjectPath = "/org/edgegateway/peripheral"
    static let heartRateService = root.appending("service0")
    static let measurement = heartRateService.appending("char0")
    static let bodySensorLocation = heartRateService.appending("char1")
    static let batteryService = root.appending("service1")
    static let batteryLevel = batteryService.appending("char0")

    /// What the application reports to its owner: a client started or stopped the measurement
    /// notifications.
    enum Event: Sendable {
        case measurementNotifying(Bool)
    }

    let connection: DBusConnection
    let bodyLocation: UInt8
    let batteryPercent: UInt8
    let onEvent: @Sendable (Event) async -> Void

    /// Exports the services and characteristics (before registering: bluetoothd reads them all
    /// at `RegisterApplication`).
    func export() async {
        await connection.addObjectManager(at: Self.root)
        await exportService(Self.heartRateService, uuid: .heartRateService)
        await exportCharacteristic(Self.measurement, service: Self.heartRateService, uuid: .heartRateMeasurement, flags: ["notify"])
        await exportCharacteristic(Self.bodySensorLocation, service: Self.heartRateService, uuid: .bodySensorLocation, flags: ["read"])
        await exportService(Self.batteryService, uuid: .batteryService)
        await exportCharacteristic(Self.batteryLevel, service: Self.batteryService, uuid: .batteryLevel, flags: ["read", "notify"])
    }

    /// Sends one measurement notification: bluetoothd notifies every subscribed client when the
    /// characteristic's `Value` changes.
    static func notify(_ frame: [UInt8], on connection: DBusConnection) async {
        await connection.setProperties(
            measurement, interface: BlueZName.gattCharacteristic,
            ["Value": .bytes(frame)], alwaysEmit: true)
    }

    private func exportService(_ path: DBusObjectPath, uuid: BluetoothUUID) async {
        await connection.export(
            path,
            [
                DBusExportedInterface(
                    Self.serviceInterface,
                    properties: [
                        "UUID": .string(uuid.uuidString), "Primary": .boolean(true), "Includes": .array(elementType: "o", []),
                    ])
            ])
    }

    private func exportCharacteristic(_ path: DBusObjectPath, service: DBusObjectPath, uuid: BluetoothUUID, flags: [String]) async {
        var properties: [String: DBusValue] = [
            "UUID": .string(uuid.uuidString), "Service": .objectPath(service), "Flags": .strings(flags),
            "Value": .bytes(readValue(of: path)),
        ]
        if flags.contains("notify") { properties["Notifying"] = .boolean(false) }
        await connection.export(path, [DBusExportedInterface(characteristicInterface(path), properties: properties)])
    }

    private func readValue(of path: DBusObjectPath) -> [UInt8] {
        switch path {
        case Self.bodySensorLocation: [bodyLocation]
        case Self.batteryLevel: [batteryPercent]
        default: []
        }
    }

    private func characteristicInterface(_ path: DBusObjectPath) -> DBusInterfaceDescription {
        DBusInterfaceDescription(
            name: BlueZName.gattCharacteristic,
            methods: [
                DBusMethodDescription("ReadValue", inputs: [DBusArgument("options", "a{sv}")], outputs: [DBusArgument("value", "ay")]) { _ in
                    guard path != Self.measurement else { throw Self.notPermitted("read") }
                    return [.bytes(readValue(of: path))]
                },
                DBusMethodDescription("StartNotify") { _ in
                    try await setNotifying(true, on: path)
                    return []
                },
                DBusMethodDescription("StopNotify") { _ in
                    try await setNotifying(false, on: path)
                    return []
                },
            ],
            properties: [
                DBusPropertyDescription("UUID", "s"), DBusPropertyDescription("Service", "o"),
                DBusPropertyDescription("Flags", "as"), DBusPropertyDescription("Value", "ay"),
                DBusPropertyDescription("Notifying", "b"),
            ])
    }

    private func setNotifying(_ on: Bool, on path: DBusObjectPath) async throws {
        guard path != Self.bodySensorLocation else { throw DBusError(name: "org.bluez.Error.NotSupported", message: "0x2A38 does not notify") }
        await connection.setProperties(path, interface: BlueZName.gattCharacteristic, ["Notifying": .boolean(on)])
        if path == Self.measurement { await onEvent(.measurementNotifying(on)) }
    }

    private static func notPermitted(_ operation: String) -> DBusError {
        DBusError(name: "org.bluez.Error.NotPermitted", message: "\(operation) not permitted")
    }

    static let serviceInterface = DBusInterfaceDescription(
        name: BlueZName.gattService,
        properties: [
            DBusPropertyDescription("UUID", "s"), DBusPropertyDescription("Primary", "b"),
            DBusPropertyDescription("Includes", "ao"),
        ])
}
