import CBlueZ

/// What a connection knows besides libdbus's own state: signal subscribers, the owners of the
/// well-known names they follow, and the exported objects.
///
/// Confined to the loop thread: created there, and touched only from jobs and callbacks, which
/// is what makes the `@unchecked Sendable` sound.
final class ConnectionState: @unchecked Sendable {
    /// A signal subscriber: where matching signals go (called on the loop thread), and what to
    /// call when the connection closes.
    struct Subscriber {
        let rule: DBusMatchRule
        let deliver: @Sendable (DBusMessage) -> Void
        let finish: @Sendable () -> Void
    }

    private var subscribers: [UInt64: Subscriber] = [:]
    private var nextSubscriberID: UInt64 = 0
    private var owners: [String: String] = [:]
    private var trackedNames: Set<String> = []
    let objects = ObjectRegistry()

    /// Hooks this state to the loop's incoming messages and its closing.
    func install(on loop: DBusLoop) {
        loop.incoming = { [self] loop, cMessage in
            let message = DBusMessageCodec.readMessage(cMessage)
            switch message.kind {
            case .signal: route(message, loop: loop)
            case .methodCall: objects.handle(message, loop: loop)
            case .methodReturn, .error: break
            }
        }
        loop.closing = { [self] _ in
            for subscriber in subscribers.values { subscriber.finish() }
            subscribers.removeAll()
            objects.removeAll()
        }
    }

    func subscribe(_ subscriber: Subscriber) -> UInt64 {
        nextSubscriberID += 1
        subscribers[nextSubscriberID] = subscriber
        return nextSubscriberID
    }

    /// How many signal streams are live (for tests of unsubscription).
    var subscriberCount: Int { subscribers.count }

    func unsubscribe(_ id: UInt64) {
        subscribers.removeValue(forKey: id)
    }

    /// `true` the first time `name` is asked for: the caller then subscribes to its changes.
    func startTracking(_ name: String) -> Bool {
        trackedNames.insert(name).inserted
    }

    func setOwner(_ owner: String?, of name: String) {
        owners[name] = owner
    }

    private func route(_ message: DBusMessage, loop: DBusLoop) {
        if message.interface == "org.freedesktop.DBus.Local" && message.member == "Disconnected" {
            loop.shutDown()
            return
        }
        if message.sender == DBusConnection.busName, message.member == "NameOwnerChanged",
            message.body.count == 3, case .string(let name) = message.body[0],
            case .string(let newOwner) = message.body[2], trackedNames.contains(name)
        {
            owners[name] = newOwner.isEmpty ? nil : newOwner
        }
        for subscriber in subscribers.values where subscriber.rule.matches(message, owner: { owners[$0] }) {
            subscriber.deliver(message)
        }
    }
}
