/// The objects a connection exports, and the standard interfaces it serves for them:
/// Properties, Introspectable and, at manager roots, ObjectManager.
///
/// Loop thread only (owned by `ConnectionState`). Method handlers run as tasks and send their
/// replies back through the loop, so serving never blocks it.
final class ObjectRegistry {
    private struct ExportedObject {
        var interfaces: [String: DBusExportedInterface] = [:]
    }

    private var objects: [DBusObjectPath: ExportedObject] = [:]
    private var managers: Set<DBusObjectPath> = []

    // MARK: Changes

    /// Forgets every exported object and its handlers: on close, so that handlers capturing the
    /// connection (or anything that owns it) cannot keep it alive.
    func removeAll() {
        objects.removeAll()
        managers.removeAll()
    }

    func addManager(at root: DBusObjectPath) {
        managers.insert(root)
    }

    func export(_ path: DBusObjectPath, _ interfaces: [DBusExportedInterface], loop: DBusLoop) {
        let isNew = objects[path] == nil
        var object = objects[path] ?? ExportedObject()
        for interface in interfaces { object.interfaces[interface.description.name] = interface }
        objects[path] = object
        guard let manager = manager(of: path) else { return }
        var added: [String: [String: DBusValue]] = [:]
        for interface in interfaces { added[interface.description.name] = interface.properties }
        if isNew {
            added[StandardInterface.introspectable] = [:]
            added[StandardInterface.properties] = [:]
        }
        loop.send(
            .signal(
                path: manager, interface: StandardInterface.objectManager, member: "InterfacesAdded",
                body: [.objectPath(path), .interfaces(added)]))
    }

    /// Removes `names` from the object at `path` (all of them when `nil`).
    func unexport(_ path: DBusObjectPath, _ names: [String]?, loop: DBusLoop) {
        guard var object = objects[path] else { return }
        let removed = names ?? Array(object.interfaces.keys)
        for name in removed { object.interfaces.removeValue(forKey: name) }
        let gone = object.interfaces.isEmpty
        objects[path] = gone ? nil : object
        guard let manager = manager(of: path) else { return }
        let reported = gone ? removed + [StandardInterface.introspectable, StandardInterface.properties] : removed
        loop.send(
            .signal(
                path: manager, interface: StandardInterface.objectManager, member: "InterfacesRemoved",
                body: [.objectPath(path), .strings(reported.sorted())]))
    }

    /// Stores new values and emits one `PropertiesChanged` for those that really changed
    /// (for all of them with `alwaysEmit`, as bluetoothd does for every notified `Value`).
    func setProperties(
        _ path: DBusObjectPath, interface: String, _ changes: [String: DBusValue],
        invalidated: [String], alwaysEmit: Bool, loop: DBusLoop
    ) {
        guard var exported = objects[path]?.interfaces[interface] else { return }
        var changed: [String: DBusValue] = [:]
        for (name, value) in changes where alwaysEmit || exported.properties[name] != value {
            exported.properties[name] = value
            changed[name] = value
        }
        for name in invalidated { exported.properties.removeValue(forKey: name) }
        objects[path]?.interfaces[interface] = exported
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        loop.send(
            .signal(
                path: path, interface: StandardInterface.properties, member: "PropertiesChanged",
                body: [.string(interface), .properties(changed), .strings(invalidated)]))
    }

    // MARK: Serving calls

    func handle(_ message: DBusMessage, loop: DBusLoop) {
        let reply = Replier(call: message, loop: loop)
        guard let path = message.path, let member = message.member else {
            return reply.error(.invalidArgs("a method call needs a path and a member"))
        }
        switch message.interface {
        case StandardInterface.introspectable?:
            return introspect(path, reply: reply)
        case StandardInterface.properties?:
            return serveProperties(member, path: path, message: message, reply: reply)
        case StandardInterface.objectManager? where managers.contains(path) && member == "GetManagedObjects":
            return reply.values([managedObjects(under: path)])
        default:
            break
        }
        if message.interface == nil && member == "Introspect" { return introspect(path, reply: reply) }
        guard let object = objects[path] else {
            return reply.error(DBusError(name: DBusError.Name.unknownObject, message: "no object at \(path)"))
        }
        let candidates =
            message.interface.map { name in object.interfaces[name].map { [$0] } ?? [] }
            ?? Array(object.interfaces.values)
        guard !candidates.isEmpty else {
            return reply.error(DBusError(name: DBusError.Name.unknownInterface, message: "\(path) has no interface \(message.interface ?? "")"))
        }
        guard let method = candidates.lazy.compactMap({ $0.description.methods.first { $0.name == member } }).first else {
            return reply.error(DBusError(name: DBusError.Name.unknownMethod, message: "no method \(member) on \(message.interface ?? path.rawValue)"))
        }
        guard message.signature == method.inputSignature else {
            return reply.error(.invalidArgs("\(member) takes (\(method.inputSignature)), not (\(message.signature))"))
        }
        let invocation = DBusMethodInvocation(message: message)
        Task {
            do {
                let values = try await method.handler(invocation)
                let signature = values.map(\.signature.rawValue).joined()
                guard signature == method.outputSignature.rawValue else {
                    return reply.error(.failed("\(member) returned (\(signature)) instead of (\(method.outputSignature))"))
                }
                reply.values(values)
            } catch let error as DBusError {
                reply.error(error)
            } catch {
                reply.error(.failed(String(describing: error)))
            }
        }
    }

    private func serveProperties(_ member: String, path: DBusObjectPath, message: DBusMessage, reply: Replier) {
        guard let object = objects[path] else {
            return reply.error(DBusError(name: DBusError.Name.unknownObject, message: "no object at \(path)"))
        }
        let arguments = message.body
        func interface(_ name: String?) -> DBusExportedInterface? {
            name.flatMap { object.interfaces[$0] }
        }
        switch (member, message.signature.rawValue) {
        case ("Get", "ss"):
            guard let exported = interface(arguments[0].string) else {
                return reply.error(DBusError(name: DBusError.Name.unknownInterface, message: "no interface \(arguments[0].string ?? "")"))
            }
            guard let value = exported.properties[arguments[1].string ?? ""] else {
                return reply.error(DBusError(name: DBusError.Name.unknownProperty, message: "no property \(arguments[1].string ?? "")"))
            }
            reply.values([.variant(value)])
        case ("GetAll", "s"):
            let name = arguments[0].string ?? ""
            if let exported = interface(name) {
                reply.values([.properties(exported.properties)])
            } else if name == StandardInterface.properties || name == StandardInterface.introspectable {
                reply.values([.properties([:])])
            } else {
                reply.error(DBusError(name: DBusError.Name.unknownInterface, message: "no interface \(name)"))
            }
        case ("Set", "ssv"):
            let propertyName = arguments[1].string ?? ""
            guard let exported = interface(arguments[0].string),
                let property = exported.description.properties.first(where: { $0.name == propertyName })
            else {
                return reply.error(DBusError(name: DBusError.Name.unknownProperty, message: "no property \(propertyName)"))
            }
            guard let setter = property.setter else {
                return reply.error(DBusError(name: DBusError.Name.propertyReadOnly, message: "\(propertyName) is read-only"))
            }
            let value = arguments[2].unwrapped
            guard value.signature == property.type else {
                return reply.error(.invalidArgs("\(propertyName) is \(property.type), not \(value.signature)"))
            }
            let invocation = DBusMethodInvocation(message: message)
            Task {
                do {
                    try await setter(value, invocation)
                    reply.values([])
                } catch let error as DBusError {
                    reply.error(error)
                } catch {
                    reply.error(.failed(String(describing: error)))
                }
            }
        default:
            reply.error(DBusError(name: DBusError.Name.unknownMethod, message: "no method \(member)(\(message.signature)) on \(StandardInterface.properties)"))
        }
    }

    private func managedObjects(under root: DBusObjectPath) -> DBusValue {
        let entries = objects.filter { $0.key != root && $0.key.isDescendant(of: root) }
            .sorted { $0.key < $1.key }
            .map { path, object in
                var interfaces = object.interfaces.mapValues(\.properties)
                interfaces[StandardInterface.introspectable] = [:]
                interfaces[StandardInterface.properties] = [:]
                return DBusDictionaryEntry(key: .objectPath(path), value: .interfaces(interfaces))
            }
        return .dictionary(keyType: "o", valueType: "a{sa{sv}}", entries)
    }

    private func manager(of path: DBusObjectPath) -> DBusObjectPath? {
        managers.filter { $0 != path && path.isDescendant(of: $0) }.max { $0.rawValue.count < $1.rawValue.count }
    }

    // MARK: Introspection

    private func introspect(_ path: DBusObjectPath, reply: Replier) {
        let children = childNames(of: path)
        let object = objects[path]
        guard object != nil || !children.isEmpty || managers.contains(path) else {
            return reply.error(DBusError(name: DBusError.Name.unknownObject, message: "no object at \(path)"))
        }
        var xml = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>

            """
        xml += StandardInterface.introspectionXML
        if managers.contains(path) { xml += StandardInterface.objectManagerXML }
        for interface in (object?.interfaces.values.map(\.description) ?? []).sorted(by: { $0.name < $1.name }) {
            xml += Introspection.xml(for: interface)
        }
        for child in children { xml += " <node name=\"\(child)\"/>\n" }
        xml += "</node>\n"
        reply.values([.string(xml)])
    }

    /// The next path element of every exported path below `path`.
    private func childNames(of path: DBusObjectPath) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names: Set<String> = []
        for candidate in objects.keys.map(\.rawValue) + managers.map(\.rawValue) where candidate.hasPrefix(prefix) {
            if let first = candidate.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }
}

/// Sends the one reply a method call gets, from any thread, unless the caller asked for none.
private struct Replier: Sendable {
    let call: DBusMessage
    let loop: DBusLoop

    func values(_ values: [DBusValue]) {
        var reply = DBusMessage(kind: .methodReturn, destination: call.sender, body: values)
        reply.replySerial = call.serial
        send(reply)
    }

    func error(_ error: DBusError) {
        var reply = DBusMessage(kind: .error, errorName: error.name, destination: call.sender, body: [.string(error.message)])
        reply.replySerial = call.serial
        send(reply)
    }

    private func send(_ reply: DBusMessage) {
        guard !call.noReplyExpected else { return }
        loop.submit { $0.send(reply) }
    }
}
