import CBlueZ
import Glibc

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
        /// Whether it also wants the signals a `PropertyBytesSubscriber` claimed.
        let includesClaimed: Bool
        let deliver: @Sendable (DBusMessage) -> Void
        let finish: @Sendable () -> Void
    }

    private var subscribers: [UInt64: Subscriber] = [:]
    private var bytesSubscribers: [UInt64: BytesRoute] = [:]
    private var nextSubscriberID: UInt64 = 0
    private var owners: [String: String] = [:] {
        didSet { for id in bytesSubscribers.keys { bytesSubscribers[id]?.resolveSender(owner: { owners[$0] }) } }
    }
    private var trackedNames: Set<String> = []
    let objects = ObjectRegistry()

    /// Hooks this state to the loop's incoming messages and its closing.
    func install(on loop: DBusLoop) {
        loop.incoming = { [self] loop, cMessage in
            let claimed = claim(cMessage)
            if claimed { loop.deliveredPropertyBytes = true }
            if claimed, !someoneWantsClaimed(cMessage) { return }
            let message = DBusMessageCodec.readMessage(cMessage)
            switch message.kind {
            case .signal: route(message, claimed: claimed, loop: loop)
            case .methodCall: objects.handle(message, loop: loop)
            case .methodReturn, .error: break
            }
        }
        loop.closing = { [self] _ in
            for subscriber in subscribers.values { subscriber.finish() }
            for route in bytesSubscribers.values { route.subscriber.finish() }
            subscribers.removeAll()
            bytesSubscribers.removeAll()
            objects.removeAll()
        }
    }

    func subscribe(_ subscriber: Subscriber) -> UInt64 {
        nextSubscriberID += 1
        subscribers[nextSubscriberID] = subscriber
        return nextSubscriberID
    }

    func subscribe(_ subscriber: PropertyBytesSubscriber) -> UInt64 {
        nextSubscriberID += 1
        var route = BytesRoute(subscriber: subscriber)
        route.resolveSender(owner: { owners[$0] })
        bytesSubscribers[nextSubscriberID] = route
        return nextSubscriberID
    }

    /// How many signal subscribers are live (for tests of unsubscription).
    var subscriberCount: Int { subscribers.count + bytesSubscribers.count }

    func unsubscribe(_ id: UInt64) {
        subscribers.removeValue(forKey: id)
        bytesSubscribers.removeValue(forKey: id)
    }

    /// Hands a `PropertiesChanged` of one byte-array property to the subscribers of that
    /// property, read in place from libdbus's message; true when one took it.
    private func claim(_ message: OpaquePointer) -> Bool {
        guard !bytesSubscribers.isEmpty, dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL,
            let path = dbus_message_get_path(message), let sender = dbus_message_get_sender(message),
            let change = PropertiesChangedBytes(message)
        else { return false }
        var claimed = false
        for route in bytesSubscribers.values where route.accepts(sender) && route.subscriber.claims(change, path: path) {
            route.subscriber.deliver(Array(change.bytes))
            claimed = true
        }
        return claimed
    }

    /// Whether a subscriber that takes claimed signals could match this one (only its sender
    /// is compared: a false yes costs a decoding, never a lost signal).
    private func someoneWantsClaimed(_ message: OpaquePointer) -> Bool {
        guard let sender = dbus_message_get_sender(message) else { return true }
        return subscribers.values.contains { $0.includesClaimed && $0.rule.mayMatch(sender: sender, owner: { owners[$0] }) }
    }

    /// `true` the first time `name` is asked for: the caller then subscribes to its changes.
    func startTracking(_ name: String) -> Bool {
        trackedNames.insert(name).inserted
    }

    func setOwner(_ owner: String?, of name: String) {
        owners[name] = owner
    }

    private func route(_ message: DBusMessage, claimed: Bool, loop: DBusLoop) {
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
        for subscriber in subscribers.values where (subscriber.includesClaimed || !claimed) && subscriber.rule.matches(message, owner: { owners[$0] }) {
            subscriber.deliver(message)
        }
        guard !claimed else { return }
        for route in bytesSubscribers.values where route.subscriber.rule.matches(message, owner: { owners[$0] }) {
            if let bytes = route.subscriber.bytes(in: message) { route.subscriber.deliver(bytes) }
        }
    }

    /// A bytes subscriber with the unique name its signals must come from, resolved when it
    /// subscribes and again whenever an owner changes: a notification is then matched to it by
    /// one `strcmp`, not a lookup of its rule's well-known name per signal.
    private struct BytesRoute {
        let subscriber: PropertyBytesSubscriber
        /// The sender as a C string; nil while its well-known name has no owner (or the rule
        /// names none, when any sender will do).
        private var sender: ContiguousArray<CChar>?

        init(subscriber: PropertyBytesSubscriber) {
            self.subscriber = subscriber
        }

        mutating func resolveSender(owner: (String) -> String?) {
            sender = subscriber.rule.expectedSender(owner: owner).map { ContiguousArray($0.utf8CString) }
        }

        /// Whether a signal from the unique name `sender` may be this subscriber's.
        func accepts(_ sender: UnsafePointer<CChar>) -> Bool {
            guard subscriber.rule.sender != nil else { return true }
            return self.sender?.withUnsafeBufferPointer { strcmp($0.baseAddress!, sender) == 0 } ?? false
        }
    }
}
