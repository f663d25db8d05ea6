import CBlueZ
import Glibc

/// A `subscribe(toBytesOf:…)` subscriber: one byte-array property of one object.
///
/// Its path, interface and property name are kept as C strings too, so that a `PropertiesChanged`
/// is compared with them inside libdbus's message, without a Swift string made per signal. A
/// class: the connection looks at its subscribers for every notification, and a reference is
/// one retain where a copy of this struct was one per field.
final class PropertyBytesSubscriber: Sendable {
    /// What the bus was asked for: the sender's `PropertiesChanged` at the path, for the interface.
    let rule: DBusMatchRule
    let property: String
    let deliver: @Sendable ([UInt8]) -> Void
    let finish: @Sendable () -> Void
    private let cPath: ContiguousArray<CChar>
    private let cInterface: ContiguousArray<CChar>
    private let cProperty: ContiguousArray<CChar>

    init(
        rule: DBusMatchRule, property: String, deliver: @escaping @Sendable ([UInt8]) -> Void, finish: @escaping @Sendable () -> Void
    ) {
        self.rule = rule
        self.property = property
        self.deliver = deliver
        self.finish = finish
        cPath = ContiguousArray((rule.path?.rawValue ?? "").utf8CString)
        cInterface = ContiguousArray((rule.arg0 ?? "").utf8CString)
        cProperty = ContiguousArray(property.utf8CString)
    }

    /// Whether `change`, a `PropertiesChanged` at `path`, is this subscriber's property alone
    /// (its sender is checked by the connection, which keeps the rule's sender resolved).
    func claims(_ change: PropertiesChangedBytes, path: UnsafePointer<CChar>) -> Bool {
        cPath.withUnsafeBufferPointer({ strcmp($0.baseAddress!, path) }) == 0
            && cInterface.withUnsafeBufferPointer({ strcmp($0.baseAddress!, change.interface) }) == 0
            && cProperty.withUnsafeBufferPointer({ strcmp($0.baseAddress!, change.property) }) == 0
    }

    /// The property's bytes in a decoded `PropertiesChanged` this subscriber's rule matched (the
    /// signals it did not claim: several properties at once), or `nil` when it is not there.
    func bytes(in signal: DBusMessage) -> [UInt8]? {
        guard signal.body.count >= 2 else { return nil }
        return signal.body[1].stringDictionary?[property]?.bytes
    }
}

/// The body of a `PropertiesChanged(s interface, a{sv} changed, as invalidated)` that changes one
/// property to an `ay` and invalidates none, as pointers into the libdbus message it was read
/// from (valid while that message is).
struct PropertiesChangedBytes {
    let interface: UnsafePointer<CChar>
    let property: UnsafePointer<CChar>
    let bytes: UnsafeBufferPointer<UInt8>

    /// Reads `message` when it is a `PropertiesChanged` of that shape; `nil` for anything else.
    init?(_ message: OpaquePointer) {
        guard dbus_message_is_signal(message, Self.cString(Self.interfaceName), Self.cString(Self.member)) != 0,
            dbus_message_has_signature(message, Self.cString(Self.signature)) != 0
        else { return nil }
        var arguments = DBusMessageIter()
        guard dbus_message_iter_init(message, &arguments) != 0 else { return nil }
        interface = Self.string(&arguments)
        dbus_message_iter_next(&arguments)
        var changed = DBusMessageIter()
        dbus_message_iter_recurse(&arguments, &changed)
        guard dbus_message_iter_get_arg_type(&changed) == DBusTypeCode.dictEntry else { return nil }
        var entry = DBusMessageIter()
        dbus_message_iter_recurse(&changed, &entry)
        property = Self.string(&entry)
        dbus_message_iter_next(&entry)
        var variant = DBusMessageIter()
        dbus_message_iter_recurse(&entry, &variant)
        guard dbus_message_iter_get_arg_type(&variant) == DBusTypeCode.array,
            dbus_message_iter_get_element_type(&variant) == DBusTypeCode.byte,
            dbus_message_iter_next(&changed) == 0
        else { return nil }
        var array = DBusMessageIter()
        dbus_message_iter_recurse(&variant, &array)
        var base: UnsafeRawPointer?
        var count: Int32 = 0
        withUnsafeMutablePointer(to: &base) { dbus_message_iter_get_fixed_array(&array, $0, &count) }
        bytes = UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: base == nil ? 0 : Int(count))
        dbus_message_iter_next(&arguments)
        var invalidated = DBusMessageIter()
        dbus_message_iter_recurse(&arguments, &invalidated)
        guard dbus_message_iter_get_arg_type(&invalidated) == DBusTypeCode.invalid else { return nil }
    }

    // The names compared per signal, as static C strings: a Swift `String` passed to C may be
    // copied into a new buffer on each call (the signature, stored inline, always is; with only
    // it static, a notification still cost one allocation more than with all three).
    private static let interfaceName: StaticString = "org.freedesktop.DBus.Properties"
    private static let member: StaticString = "PropertiesChanged"
    private static let signature: StaticString = "sa{sv}as"

    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    private static func string(_ iterator: inout DBusMessageIter) -> UnsafePointer<CChar> {
        var pointer: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iterator, $0) }
        return pointer!
    }
}
