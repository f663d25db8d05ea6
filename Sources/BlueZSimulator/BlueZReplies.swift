import BlueZ
import DBus

/// The errors bluetoothd 5.66 answers with: same names, same messages.
enum BlueZReply {
    static let inProgress = DBusError(name: "org.bluez.Error.InProgress", message: "In Progress")
    static let discoveryInProgress = DBusError(name: "org.bluez.Error.InProgress", message: "Operation already in progress")
    static let notReady = DBusError(name: "org.bluez.Error.NotReady", message: "Resource Not Ready")
    static let doesNotExist = DBusError(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist")
    static let invalidArguments = DBusError(name: "org.bluez.Error.InvalidArguments", message: "Invalid arguments in method call")
    static let notSupported = DBusError(name: "org.bluez.Error.NotSupported", message: "Operation is not supported")
    static let notConnected = DBusError(name: "org.bluez.Error.NotConnected", message: "Not Connected")
    static let alreadyExists = DBusError(name: "org.bluez.Error.AlreadyExists", message: "Already Exists")
    static let authenticationFailed = DBusError(name: "org.bluez.Error.AuthenticationFailed", message: "Authentication Failed")
    static let notifyAcquired = DBusError(name: "org.bluez.Error.NotPermitted", message: "Notify acquired")
    static let readNotPermitted = DBusError(name: "org.bluez.Error.NotPermitted", message: "Read not permitted")
    static let writeNotPermitted = DBusError(name: "org.bluez.Error.NotPermitted", message: "Write not permitted")
    static let connectionAborted = DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local")
    static let noDiscoveryStarted = DBusError(name: "org.bluez.Error.Failed", message: "No discovery started")
    static let noNotifySession = DBusError(name: "org.bluez.Error.Failed", message: "No notify session started")
    /// A write the strap refused with an ATT error (0x80: control point value not supported).
    static func attError(_ code: UInt8) -> DBusError {
        DBusError(name: "org.bluez.Error.Failed", message: "Operation failed with ATT error: 0x\(String(code, radix: 16))")
    }
    /// The simulator is shutting down while a call was in flight.
    static let gone = DBusError(name: "org.freedesktop.DBus.Error.NoReply", message: "bluetoothd is stopping")
}
