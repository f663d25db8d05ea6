/// Typed views of values, looking through variants, so callers read `value.string` instead of
/// matching nested enum cases.
extension DBusValue {
    /// The value inside a variant (recursively), or the value itself.
    package var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of an `s`, through any variants; `nil` for every other type (even `o` and `g`).
    package var string: String? {
        if case .string(let value) = unwrapped { return value }
        return nil
    }

    /// The path of an `o`, through any variants; `nil` for every other type.
    package var objectPath: DBusObjectPath? {
        if case .objectPath(let value) = unwrapped { return value }
        return nil
    }

    /// The value of a `b`, through any variants; `nil` for every other type (no integer coercion).
    package var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type that fits an `Int` (RSSI is `n`, MTU `q`, percentages `y` …).
    package var integer: Int? {
        switch unwrapped {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        default: nil
        }
    }

    /// `ay` (or an array of bytes in the generic form).
    package var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let bytes): return bytes
        case .array(let type, let elements) where type.rawValue == "y":
            return elements.compactMap { if case .byte(let b) = $0 { b } else { nil } }
        default: return nil
        }
    }

    /// The descriptor of an `h`, through any variants: open while the returned object lives;
    /// `duplicate()` it for code that outlives the object.
    package var fileDescriptor: DBusFileDescriptor? {
        if case .unixFD(let fd) = unwrapped { return fd }
        return nil
    }

    /// The elements of an array (`ay` as bytes).
    package var elements: [DBusValue]? {
        switch unwrapped {
        case .array(_, let elements): return elements
        case .bytes(let bytes): return bytes.map(DBusValue.byte)
        default: return nil
        }
    }

    /// `as`.
    package var strings: [String]? {
        elements?.compactMap(\.string)
    }

    /// A dictionary with string keys (`a{sv}`, `a{sa{sv}}`) as a Swift dictionary.
    package var stringDictionary: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            if let key = entry.key.string { result[key] = entry.value }
        }
        return result
    }

    /// A dictionary with object-path keys (`a{oa{sa{sv}}}`) as a Swift dictionary.
    package var objectPathDictionary: [DBusObjectPath: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [DBusObjectPath: DBusValue] = [:]
        for entry in entries {
            if let key = entry.key.objectPath { result[key] = entry.value }
        }
        return result
    }
}

/// Builders for the container shapes BlueZ uses.
extension DBusValue {
    /// `a{sv}`, keys sorted so the wire form is deterministic.
    package static func properties(_ values: [String: DBusValue]) -> DBusValue {
        .dictionary(
            keyType: "s", valueType: "v",
            values.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
            })
    }

    /// `a{sa{sv}}`: interfaces with their properties.
    package static func interfaces(_ values: [String: [String: DBusValue]]) -> DBusValue {
        .dictionary(
            keyType: "s", valueType: "a{sv}",
            values.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .properties($0.value))
            })
    }

    /// `as`.
    package static func strings(_ values: [String]) -> DBusValue {
        .array(elementType: "s", values.map(DBusValue.string))
    }
}
