import DBus

/// The bus name and interface names bluetoothd exports (bluez 5.66).
public enum BlueZName {
    public static let service = "org.bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let battery = "org.bluez.Battery1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let agentManager = "org.bluez.AgentManager1"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// Every bluetoothd object lives below this path.
    public static let root: DBusObjectPath = "/org/bluez"
}
