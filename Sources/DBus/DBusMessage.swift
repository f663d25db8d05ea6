/// A D-Bus message as a plain Swift value.
///
/// libdbus messages are reference-counted C objects tied to the loop thread; converting them
/// to values at the edge keeps every other thread free of C pointers and of refcount bugs.
package struct DBusMessage: Sendable {
    /// The four message types of the D-Bus specification.
    package enum Kind: Sendable, Equatable {
        case methodCall
        case methodReturn
        case error
        case signal
    }

    /// Call, return, error or signal: decides which of the other fields are meaningful.
    package var kind: Kind
    /// The object a call is addressed to or a signal is emitted from; `nil` on replies.
    package var path: DBusObjectPath?
    /// The interface of the call or signal (`org.bluez.Device1`); optional on calls.
    package var interface: String?
    /// The method or signal name (`Connect`, `PropertiesChanged`); `nil` on replies.
    package var member: String?
    /// For `.error`: the error name (`org.bluez.Error.InProgress`).
    package var errorName: String?
    /// The bus name the message is sent to: required for calls, set on replies to the caller;
    /// `nil` on a signal broadcasts it.
    package var destination: String?
    /// The sender's unique name (`:1.42`), set on received messages.
    package var sender: String?
    /// Set on received messages.
    package var serial: UInt32 = 0
    /// For replies: the serial of the call answered.
    package var replySerial: UInt32?
    /// For calls: the caller does not want a reply.
    package var noReplyExpected = false
    /// The arguments.
    package var body: [DBusValue]

    /// A message from its parts; most callers use `methodCall` or `signal`.
    package init(
        kind: Kind, path: DBusObjectPath? = nil, interface: String? = nil, member: String? = nil,
        errorName: String? = nil, destination: String? = nil, body: [DBusValue] = []
    ) {
        self.kind = kind
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.destination = destination
        self.body = body
    }

    /// A method call to `destination`.
    package static func methodCall(
        destination: String, path: DBusObjectPath, interface: String, member: String, body: [DBusValue] = []
    ) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: path, interface: interface, member: member, destination: destination, body: body)
    }

    /// A signal emitted from `path`.
    package static func signal(
        path: DBusObjectPath, interface: String, member: String, body: [DBusValue] = []
    ) -> DBusMessage {
        DBusMessage(kind: .signal, path: path, interface: interface, member: member, body: body)
    }

    /// The signature of the body (`sa{sv}as` …).
    package var signature: DBusSignature {
        DBusSignature(unchecked: body.map(\.signature.rawValue).joined())
    }
}
