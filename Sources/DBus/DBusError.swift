/// A D-Bus error: the error name a peer (or libdbus) returned, and its message.
///
/// The name is the stable code (`org.bluez.Error.InProgress`,
/// `org.freedesktop.DBus.Error.NoReply`); layers above map it to their own typed errors.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name.
    public let name: String
    /// The human-readable message that came with it.
    public let message: String

    /// An error from its name and message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// Standard names used by this layer and by the bus.
    public enum Name {
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    }

    static func invalidArgs(_ message: String) -> DBusError { DBusError(name: Name.invalidArgs, message: message) }
    static func failed(_ message: String) -> DBusError { DBusError(name: Name.failed, message: message) }
    static let disconnected = DBusError(name: Name.disconnected, message: "the connection to the bus is closed")
}
