import CBlueZ

/// Converts between `DBusMessage` values and libdbus messages. Loop thread only.
enum DBusMessageCodec {
    // MARK: Swift → C

    /// A new libdbus message (+1 reference, the caller unrefs) for `message`.
    /// Throws `InvalidArgs` for values libdbus would reject (strings with NUL, mistyped arrays).
    static func makeCMessage(_ message: DBusMessage) throws(DBusError) -> OpaquePointer {
        let c: OpaquePointer?
        switch message.kind {
        case .methodCall:
            c = dbus_message_new_method_call(
                message.destination, message.path?.rawValue ?? "/", message.interface, message.member ?? "")
        case .signal:
            c = dbus_message_new_signal(message.path?.rawValue ?? "/", message.interface ?? "", message.member ?? "")
        case .methodReturn, .error:
            c = dbus_message_new(message.kind == .error ? DBUS_MESSAGE_TYPE_ERROR : DBUS_MESSAGE_TYPE_METHOD_RETURN)
            if let c {
                if let errorName = message.errorName { dbus_message_set_error_name(c, errorName) }
                if let serial = message.replySerial { dbus_message_set_reply_serial(c, serial) }
                dbus_message_set_no_reply(c, 1)
                if let destination = message.destination { dbus_message_set_destination(c, destination) }
            }
        }
        guard let c else { throw DBusError(name: DBusError.Name.noMemory, message: "libdbus could not create a message") }
        if message.noReplyExpected { dbus_message_set_no_reply(c, 1) }
        if message.kind == .signal, let destination = message.destination { dbus_message_set_destination(c, destination) }
        do {
            var iterator = DBusMessageIter()
            dbus_message_iter_init_append(c, &iterator)
            for value in message.body {
                try requireValid(value.signature.rawValue)
                try append(value, to: &iterator)
            }
        } catch {
            dbus_message_unref(c)
            throw error
        }
        return c
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) throws(DBusError) {
        var ok: dbus_bool_t = 1
        switch value {
        case .byte(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.byte, &v)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.boolean, &v)
        case .int16(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.int16, &v)
        case .uint16(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.uint16, &v)
        case .int32(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.int32, &v)
        case .uint32(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.uint32, &v)
        case .int64(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.int64, &v)
        case .uint64(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.uint64, &v)
        case .double(var v): ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.double, &v)
        case .string(let s):
            guard !s.utf8.contains(0) else { throw .invalidArgs("a D-Bus string cannot contain NUL") }
            ok = appendString(s, code: DBusTypeCode.string, to: &iterator)
        case .objectPath(let p): ok = appendString(p.rawValue, code: DBusTypeCode.objectPath, to: &iterator)
        case .signature(let g): ok = appendString(g.rawValue, code: DBusTypeCode.signature, to: &iterator)
        case .unixFD(let fd):
            var raw = fd.rawValue
            ok = dbus_message_iter_append_basic(&iterator, DBusTypeCode.unixFD, &raw)
        case .bytes(let bytes):
            try withContainer(DBusTypeCode.array, "y", in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                let appended = bytes.withUnsafeBufferPointer { buffer in
                    var base = buffer.baseAddress
                    return dbus_message_iter_append_fixed_array(&sub, DBusTypeCode.byte, &base, Int32(buffer.count))
                }
                if appended == 0 { throw DBusError(name: DBusError.Name.noMemory, message: "out of memory") }
            }
        case .array(let elementType, let elements):
            try requireValid("a" + elementType.rawValue)
            if let wrong = elements.first(where: { $0.signature != elementType }) {
                throw .invalidArgs("array of \(elementType) holds a \(wrong.signature)")
            }
            try withContainer(DBusTypeCode.array, elementType.rawValue, in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                for element in elements { try append(element, to: &sub) }
            }
        case .dictionary(let keyType, let valueType, let entries):
            try requireValid("a{\(keyType)\(valueType)}")
            if let wrong = entries.first(where: { $0.key.signature != keyType || $0.value.signature != valueType }) {
                throw .invalidArgs("dictionary {\(keyType)\(valueType)} holds {\(wrong.key.signature)\(wrong.value.signature)}")
            }
            try withContainer(DBusTypeCode.array, "{\(keyType)\(valueType)}", in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                for entry in entries {
                    try withContainer(DBusTypeCode.dictEntry, nil, in: &sub) { (pair: inout DBusMessageIter) throws(DBusError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgs("a D-Bus struct needs at least one field") }
            try withContainer(DBusTypeCode.structure, nil, in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try requireValid(inner.signature.rawValue)
            try withContainer(DBusTypeCode.variant, inner.signature.rawValue, in: &iterator) { (sub: inout DBusMessageIter) throws(DBusError) in
                try append(inner, to: &sub)
            }
        }
        if ok == 0 { throw DBusError(name: DBusError.Name.noMemory, message: "libdbus could not append a \(value.signature)") }
    }

    /// libdbus aborts the process on an invalid container signature: check it first.
    private static func requireValid(_ signature: String) throws(DBusError) {
        guard let valid = DBusSignature(signature), valid.completeTypes.count == 1 else {
            throw .invalidArgs("'\(signature)' is not a valid D-Bus type")
        }
    }

    private static func appendString(_ text: String, code: Int32, to iterator: inout DBusMessageIter) -> dbus_bool_t {
        text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, code, &p)
        }
    }

    private static func withContainer(
        _ type: Int32, _ signature: String?, in iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t =
            if let signature {
                signature.withCString { dbus_message_iter_open_container(&iterator, type, $0, &sub) }
            } else {
                dbus_message_iter_open_container(&iterator, type, nil, &sub)
            }
        guard opened != 0 else { throw DBusError(name: DBusError.Name.noMemory, message: "out of memory") }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iterator, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iterator, &sub) != 0 else {
            throw DBusError(name: DBusError.Name.noMemory, message: "out of memory")
        }
    }

    // MARK: C → Swift

    /// The Swift value of a libdbus message (which stays owned by the caller).
    static func readMessage(_ c: OpaquePointer) -> DBusMessage {
        let kind: DBusMessage.Kind =
            switch dbus_message_get_type(c) {
            case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
            case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
            case DBUS_MESSAGE_TYPE_ERROR: .error
            default: .signal
            }
        var message = DBusMessage(
            kind: kind,
            path: dbus_message_get_path(c).map { DBusObjectPath(receivedFromLibdbus: String(cString: $0)) },
            interface: dbus_message_get_interface(c).map { String(cString: $0) },
            member: dbus_message_get_member(c).map { String(cString: $0) },
            errorName: dbus_message_get_error_name(c).map { String(cString: $0) },
            destination: dbus_message_get_destination(c).map { String(cString: $0) })
        message.sender = dbus_message_get_sender(c).map { String(cString: $0) }
        message.serial = dbus_message_get_serial(c)
        let replySerial = dbus_message_get_reply_serial(c)
        message.replySerial = replySerial == 0 ? nil : replySerial
        message.noReplyExpected = dbus_message_get_no_reply(c) != 0

        var iterator = DBusMessageIter()
        if dbus_message_iter_init(c, &iterator) != 0 {
            repeat {
                message.body.append(readValue(&iterator))
            } while dbus_message_iter_next(&iterator) != 0
        }
        return message
    }

    private static func readValue(_ iterator: inout DBusMessageIter) -> DBusValue {
        switch dbus_message_iter_get_arg_type(&iterator) {
        case DBusTypeCode.byte: return .byte(basic(&iterator, UInt8(0)))
        case DBusTypeCode.boolean: return .boolean(basic(&iterator, dbus_bool_t(0)) != 0)
        case DBusTypeCode.int16: return .int16(basic(&iterator, Int16(0)))
        case DBusTypeCode.uint16: return .uint16(basic(&iterator, UInt16(0)))
        case DBusTypeCode.int32: return .int32(basic(&iterator, Int32(0)))
        case DBusTypeCode.uint32: return .uint32(basic(&iterator, UInt32(0)))
        case DBusTypeCode.int64: return .int64(basic(&iterator, Int64(0)))
        case DBusTypeCode.uint64: return .uint64(basic(&iterator, UInt64(0)))
        case DBusTypeCode.double: return .double(basic(&iterator, Double(0)))
        case DBusTypeCode.string: return .string(string(&iterator))
        case DBusTypeCode.objectPath: return .objectPath(DBusObjectPath(receivedFromLibdbus: string(&iterator)))
        case DBusTypeCode.signature: return .signature(DBusSignature(unchecked: string(&iterator)))
        case DBusTypeCode.unixFD: return .unixFD(DBusFileDescriptor(takingOwnershipOf: basic(&iterator, Int32(-1))))
        case DBusTypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return .variant(readValue(&sub))
        case DBusTypeCode.structure:
            return .structure(readElements(&iterator))
        case DBusTypeCode.array:
            return readArray(&iterator)
        default:
            return .structure([])
        }
    }

    private static func readArray(_ iterator: inout DBusMessageIter) -> DBusValue {
        let signature = iteratorSignature(&iterator)
        let elementType = DBusSignature(unchecked: String(signature.dropFirst()))
        switch dbus_message_iter_get_element_type(&iterator) {
        case DBusTypeCode.byte:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            var base: UnsafeRawPointer?
            var count: Int32 = 0
            withUnsafeMutablePointer(to: &base) { dbus_message_iter_get_fixed_array(&sub, $0, &count) }
            guard let base, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: Int(count))))
        case DBusTypeCode.dictEntry:
            // "a{kv}": the key is one basic type, the value the rest before "}".
            let inner = signature.dropFirst(2).dropLast()
            let keyType = DBusSignature(unchecked: String(inner.prefix(1)))
            let valueType = DBusSignature(unchecked: String(inner.dropFirst()))
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            var entries: [DBusDictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == DBusTypeCode.dictEntry {
                let pair = readElements(&sub)
                if pair.count == 2 { entries.append(DBusDictionaryEntry(key: pair[0], value: pair[1])) }
                dbus_message_iter_next(&sub)
            }
            return .dictionary(keyType: keyType, valueType: valueType, entries)
        default:
            return .array(elementType: elementType, readElements(&iterator))
        }
    }

    /// The values inside a container (array, struct or dict entry).
    private static func readElements(_ iterator: inout DBusMessageIter) -> [DBusValue] {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &sub)
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&sub) != DBusTypeCode.invalid {
            values.append(readValue(&sub))
            dbus_message_iter_next(&sub)
        }
        return values
    }

    private static func basic<T>(_ iterator: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
        return value
    }

    private static func string(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iterator, $0) }
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func iteratorSignature(_ iterator: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iterator) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
