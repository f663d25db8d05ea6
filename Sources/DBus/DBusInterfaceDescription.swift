/// An interface an object exports: its methods, properties and signals.
///
/// The description drives both dispatch (argument signatures are checked before a handler
/// runs) and `Introspect`, so what a peer sees in `busctl introspect` is what the object does.
public struct DBusInterfaceDescription: Sendable {
    public var name: String
    public var methods: [DBusMethodDescription]
    public var properties: [DBusPropertyDescription]
    public var signals: [DBusSignalDescription]

    /// An interface from its parts.
    public init(
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
public struct DBusArgument: Sendable {
    public var name: String
    public var type: DBusSignature

    public init(_ name: String, _ type: DBusSignature) {
        self.name = name
        self.type = type
    }
}

/// A method call being served.
public struct DBusMethodInvocation: Sendable {
    /// The call as received: sender, path, arguments.
    public let message: DBusMessage
    /// The call's arguments.
    public var arguments: [DBusValue] { message.body }
    /// The caller's unique name.
    public var sender: String { message.sender ?? "" }
}

/// An exported method. The handler runs as its own task: it may call out, even back into the
/// caller, without blocking the connection. A thrown `DBusError` becomes the error reply.
public struct DBusMethodDescription: Sendable {
    public var name: String
    public var inputs: [DBusArgument]
    public var outputs: [DBusArgument]
    public var handler: @Sendable (DBusMethodInvocation) async throws -> [DBusValue]

    public init(
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
public struct DBusPropertyDescription: Sendable {
    public var name: String
    public var type: DBusSignature
    public var setter: (@Sendable (DBusValue, DBusMethodInvocation) async throws -> Void)?

    public init(
        _ name: String, _ type: DBusSignature,
        setter: (@Sendable (DBusValue, DBusMethodInvocation) async throws -> Void)? = nil
    ) {
        self.name = name
        self.type = type
        self.setter = setter
    }
}

/// A signal an interface emits, for introspection.
public struct DBusSignalDescription: Sendable {
    public var name: String
    public var arguments: [DBusArgument]

    public init(_ name: String, _ arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// An interface instance on an object: its description and current property values.
public struct DBusExportedInterface: Sendable {
    public var description: DBusInterfaceDescription
    public var properties: [String: DBusValue]

    public init(_ description: DBusInterfaceDescription, properties: [String: DBusValue] = [:]) {
        self.description = description
        self.properties = properties
    }
}
