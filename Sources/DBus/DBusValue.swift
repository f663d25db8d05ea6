/// Any value D-Bus can carry, with its type.
///
/// Containers keep their element type so an empty array still has a signature. `ay` has its
/// own case because it is how notifications travel: one contiguous copy, not one enum per byte.
package indirect enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(DBusObjectPath)
    case signature(DBusSignature)
    case unixFD(DBusFileDescriptor)
    /// `ay`.
    case bytes([UInt8])
    /// An array of any other element type, all of `elementType`.
    case array(elementType: DBusSignature, [DBusValue])
    /// `a{kv}`, entries in order.
    case dictionary(keyType: DBusSignature, valueType: DBusSignature, [DBusDictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's complete type signature (`a{sv}`, `(ay)` …).
    package var signature: DBusSignature {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): DBusSignature(unchecked: "a" + element.rawValue)
        case .dictionary(let key, let value, _): DBusSignature(unchecked: "a{" + key.rawValue + value.rawValue + "}")
        case .structure(let fields): DBusSignature(unchecked: "(" + fields.map(\.signature.rawValue).joined() + ")")
        case .variant: "v"
        }
    }
}

/// One `{key value}` entry of a D-Bus dictionary.
package struct DBusDictionaryEntry: Hashable, Sendable {
    /// The entry's key: a basic type (string, integer, object path …), as D-Bus requires.
    package let key: DBusValue
    /// The entry's value, of the dictionary's value type (often a `v` variant).
    package let value: DBusValue

    /// An entry from its key and value.
    package init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
