import BlueZ
import DBus
import GATTHeartRate

/// The LE advertisement the peripheral registers through
/// `org.bluez.LEAdvertisingManager1.RegisterAdvertisement`: connectable, general
/// discoverable, with the Heart Rate service UUID and a local name, as a strap advertises.
struct Advertisement: Sendable {
    static let path: DBusObjectPath = "/org/edgegateway/advertisement0"

    let connection: DBusConnection
    let localName: String

    /// Exports the `org.bluez.LEAdvertisement1` object bluetoothd reads at registration.
    func export() async {
        let interface = DBusInterfaceDescription(
            name: "org.bluez.LEAdvertisement1",
            methods: [DBusMethodDescription("Release") { _ in [] }],
            properties: [
                DBusPropertyDescription("Type", "s"), DBusPropertyDescription("ServiceUUIDs", "as"),
                DBusPropertyDescription("LocalName", "s"), DBusPropertyDescription("Discoverable", "b"),
            ])
        await connection.export(
            Self.path,
            [
                DBusExportedInterface(
                    interface,
                    properties: [
                        "Type": .string("peripheral"),
                        "ServiceUUIDs": .strings([BluetoothUUID.heartRateService.uuidString]),
                        "LocalName": .string(localName),
                        "Discoverable": .boolean(true),
                    ])
            ])
    }
}
