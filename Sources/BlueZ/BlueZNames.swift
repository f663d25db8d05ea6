import DBus

/// The bus name and interface names bluetoothd exports (bluez 5.66).
package enum BlueZName {
    /// bluetoothd's well-known bus name: the destination of every call and the sender the
    /// client's signal subscriptions follow across restarts.
    package static let service = "org.bluez"
    /// A local controller (`/org/bluez/hci0`): `Powered`, discovery, `RemoveDevice`.
    package static let adapter = "org.bluez.Adapter1"
    /// A remote device bluetoothd has seen or remembers (`/org/bluez/hci0/dev_F0_1D_…`).
    package static let device = "org.bluez.Device1"
    /// Added to a device that exposes the Battery Service; its `Percentage` is 0–100.
    package static let battery = "org.bluez.Battery1"
    /// A remote GATT service, exported below its device once services are resolved.
    package static let gattService = "org.bluez.GattService1"
    /// A remote GATT characteristic (read, write, notify), below its service.
    package static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    /// Where a pairing agent registers, on `/org/bluez` (`root`).
    package static let agentManager = "org.bluez.AgentManager1"
    /// The standard interface for `Set` calls and the `PropertiesChanged` signals that keep the
    /// mirror current (and carry `StartNotify` notifications).
    package static let properties = "org.freedesktop.DBus.Properties"
    /// The standard interface bluetoothd serves at `/`: `GetManagedObjects` fills the mirror,
    /// `InterfacesAdded`/`InterfacesRemoved` keep it current.
    package static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// Every bluetoothd object lives below this path.
    package static let root: DBusObjectPath = "/org/bluez"
}
