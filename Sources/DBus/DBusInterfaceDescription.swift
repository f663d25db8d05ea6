/// An interface an object exports: its methods, properties and signals.
///
/// The description drives both dispatch (argument signatures are checked before a handler
/// runs) and `Introspect`, so what a peer sees in `busctl introspect` is what the object does.
package struct DBusInterfaceDescription: Sendable {
    /// The interface name (`org.bluez.GattCharacteristic1`) that calls and `Get`/`Set` address.
    package var name: String
    /// The methods calls are dispatched to; a call to any other member gets `UnknownMethod`.
    package var methods: [DBusMethodDescription]
    /// The properties `Set` accepts and introspection lists; their values live in
    /// `DBusExportedInterface.properties`.
    package var properties: [DBusPropertyDescription]
    /// The signals the interface emits, for introspection only: `emit` does not check them.
    package var signals: [DBusSignalDescription]

    /// An interface from its parts.
    package init(
        name: String, methods: [DBusMethodDescription] = [],
        properties: [DBusPropertyDescription] = [], signals: [DBusSignalDescription] = []
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}

/// A named, typed argument, for signatures and introspection.
package struct DBusArgument: Sendable {
    /// The argument's name, shown in introspection only (calls are matched by type, not name).
    package var name: String
    /// The argument's single complete type (`s`, `a{sv}`).
    package var type: DBusSignature

    /// An argument from its name and type: `DBusArgument("options", "a{sv}")`.
    package init(_ name: String, _ type: DBusSignature) {
        self.name = name
        self.type = type
    }
}

/// A method call being served.
package struct DBusMethodInvocation: Sendable {
    /// The call as received: sender, path, arguments.
    package let message: DBusMessage
    /// The call's arguments.
    package var arguments: [DBusValue] { message.body }
    /// The caller's unique name.
    package var sender: String { message.sender ?? "" }
}

/// An exported method. The handler runs as its own task: it may call out, even back into the
/// caller, without blocking the connection. A thrown `DBusError` becomes the error reply.
package struct DBusMethodDescription: Sendable {
    /// The member name calls use (`ReadValue`).
    package var name: String
    /// The arguments a call must carry: a call whose signature differs gets `InvalidArgs` and
    /// the handler does not run.
    package var inputs: [DBusArgument]
    /// What the handler must return: a reply with another signature is replaced by a `Failed`
    /// error.
    package var outputs: [DBusArgument]
    /// Serves one call, as its own task; returns the reply body, or throws (a `DBusError` is sent
    /// as is, anything else as `Failed`).
    package var handler: @Sendable (DBusMethodInvocation) async throws -> [DBusValue]

    /// A method from its name, signature and handler; no arguments and no results by default.
    package init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        handler: @escaping @Sendable (DBusMethodInvocation) async throws -> [DBusValue]
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
    }

    var inputSignature: DBusSignature { DBusSignature(unchecked: inputs.map(\.type.rawValue).joined()) }
    var outputSignature: DBusSignature { DBusSignature(unchecked: outputs.map(\.type.rawValue).joined()) }
}

/// An exported property. Values live in the connection (set with `setProperties`), so `Get`,
/// `GetAll` and `GetManagedObjects` answer at once; a writable property has a `setter` that
/// validates the value and applies it (usually through `setProperties`).
package struct DBusPropertyDescription: Sendable {
    /// The property name `Get`, `Set` and `PropertiesChanged` use (`Value`, `Notifying`).
    package var name: String
    /// The value's type: `Set` with a value of another type gets `InvalidArgs`.
    package var type: DBusSignature
    /// Validates and applies a `Set` (throwing rejects it); `nil` makes the property read-only
    /// (`PropertyReadOnly`).
    package var setter: (@Sendable (DBusValue, DBusMethodInvocation) async throws -> Void)?

    /// A property from its name and type; read-only unless a `setter` is given.
    package init(
        _ name: String, _ type: DBusSignature,
        setter: (@Sendable (DBusValue, DBusMethodInvocation) async throws -> Void)? = nil
    ) {
        self.name = name
        self.type = type
        self.setter = setter
    }
}

/// A signal an interface emits, for introspection.
package struct DBusSignalDescription: Sendable {
    /// The signal's member name (`PropertiesChanged`).
    package var name: String
    /// The signal's arguments, as introspection shows them.
    package var arguments: [DBusArgument]

    /// A signal from its name and arguments (none by default).
    package init(_ name: String, _ arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// An interface instance on an object: its description and current property values.
package struct DBusExportedInterface: Sendable {
    /// The interface's methods, properties and signals, which dispatch and introspection use.
    package var description: DBusInterfaceDescription
    /// The current property values by name, answered by `Get`/`GetAll`/`GetManagedObjects`;
    /// change them later with `setProperties` so that `PropertiesChanged` is emitted.
    package var properties: [String: DBusValue]

    /// An interface ready to `export`, with its initial property values (none by default).
    package init(_ description: DBusInterfaceDescription, properties: [String: DBusValue] = [:]) {
        self.description = description
        self.properties = properties
    }
}
