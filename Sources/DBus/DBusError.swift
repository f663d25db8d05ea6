/// A D-Bus error: the error name a peer (or libdbus) returned, and its message.
///
/// The name is the stable code (`org.bluez.Error.InProgress`,
/// `org.freedesktop.DBus.Error.NoReply`); layers above map it to their own typed errors.
package struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name.
    package let name: String
    /// The human-readable message that came with it.
    package let message: String

    /// An error from its name and message.
    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The error name, then the message when there is one, as logs print it.
    package var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// Standard names used by this layer and by the bus.
    package enum Name {
        /// The generic failure: the name given to errors that carry none, and this layer's reply
        /// when a handler throws something other than a `DBusError` or returns the wrong signature.
        package static let failed = "org.freedesktop.DBus.Error.Failed"
        /// No reply arrived in time: libdbus sends it when a call's timeout expires (or the callee
        /// leaves without answering). `BlueZError` counts it as transient.
        package static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// The connection to the bus is closed: calls made on (or pending in) a closed connection
        /// fail with it, and no later call on that connection can succeed.
        package static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// The bus daemon's answer when a call's destination name has no owner and cannot be
        /// activated, e.g. bluetoothd is not running (`BlueZError.isDaemonUnavailable`).
        package static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        /// The bus daemon's answer to `GetNameOwner` for a name nobody owns; `nameOwner(of:)`
        /// turns it into `nil`.
        package static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        /// No object is exported at the call's path (sent by the object server here, too).
        package static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// The object at the path exists but does not have the interface the call named.
        package static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        /// The interface has no method of that name (also: an unknown `Properties` member or
        /// signature).
        package static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// `Get` or `Set` named a property the interface does not export.
        package static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        /// `Set` on a property that has no setter.
        package static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// The arguments do not match the method's input signature or the property's type; the
        /// codec also throws it for values libdbus would reject (a string with NUL, bad arrays).
        package static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// libdbus could not allocate a message or append a value to it.
        package static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        /// The standard name for an operation the callee does not support. bluetoothd sends its own
        /// `org.bluez.Error.NotSupported` instead, so compare `BlueZError.code` for BlueZ calls.
        package static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    }

    static func invalidArgs(_ message: String) -> DBusError { DBusError(name: Name.invalidArgs, message: message) }
    static func failed(_ message: String) -> DBusError { DBusError(name: Name.failed, message: message) }
    static let disconnected = DBusError(name: Name.disconnected, message: "the connection to the bus is closed")
}
