import DBus

/// A change in bluetoothd's object tree, in the order bluetoothd reported it.
package enum BlueZEvent: Sendable, Equatable {
    /// Interfaces (with their properties) appeared on an object.
    case interfacesAdded(DBusObjectPath, [String: [String: DBusValue]])
    /// Interfaces disappeared from an object.
    case interfacesRemoved(DBusObjectPath, [String])
    /// Properties of one interface changed.
    case propertiesChanged(DBusObjectPath, interface: String, [String: DBusValue])
    /// bluetoothd left the bus: every object is gone.
    case daemonStopped
    /// bluetoothd is (back) on the bus and its objects have been read again.
    case daemonStarted
}
