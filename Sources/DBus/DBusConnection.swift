import CBlueZ
import Synchronization

/// A private connection to a message bus, driven by its own loop thread.
///
/// Calls are `async` and never block a thread while they wait; signals arrive as `AsyncStream`s
/// that finish when the subscriber stops listening or the connection closes; objects exported
/// here are served without blocking the loop, even when their handlers call out.
package final class DBusConnection: Sendable {
    /// Which bus to connect to.
    package enum Bus: Sendable {
        /// The system bus, at `DBUS_SYSTEM_BUS_ADDRESS` when set (how tests and the simulator
        /// point the gateway at a private bus), else the standard socket.
        case system
        /// A bus at an explicit address (`unix:path=/run/…`).
        case address(String)
    }

    let loop: DBusLoop
    let state: ConnectionState
    /// This connection's unique name on the bus (`:1.42`).
    package let uniqueName: String

    /// The timeout for calls that do not give their own: bluetoothd's own operations (connect,
    /// pair) can take 30 s.
    package static let defaultTimeout: Duration = .seconds(40)

    private init(loop: DBusLoop, state: ConnectionState, uniqueName: String) {
        self.loop = loop
        self.state = state
        self.uniqueName = uniqueName
    }

    /// Connects and registers with the bus.
    package static func connect(_ bus: Bus = .system) async throws(DBusError) -> DBusConnection {
        initialiseThreadsOnce
        let loop = DBusLoop()
        let opened = await loop.start {
            var error = CBlueZ.DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            let connection: OpaquePointer?
            switch bus {
            case .system:
                connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
            case .address(let address):
                connection = dbus_connection_open_private(address, &error)
                if let connection, dbus_bus_register(connection, &error) == 0 {
                    dbus_connection_close(connection)
                    dbus_connection_unref(connection)
                    return .failure(Self.error(from: error, fallback: "cannot register on the bus at \(address)"))
                }
            }
            guard let connection else {
                return .failure(Self.error(from: error, fallback: "cannot connect to the bus"))
            }
            return .success(connection)
        }
        try opened.get()
        let name = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            loop.submit { loop in
                done.resume(returning: loop.connection.flatMap { dbus_bus_get_unique_name($0) }.map { String(cString: $0) } ?? "")
            }
        }
        let state = ConnectionState()
        let connection = DBusConnection(loop: loop, state: state, uniqueName: name)
        loop.submit { loop in state.install(on: loop) }
        return connection
    }

    private static func error(from error: CBlueZ.DBusError, fallback: String) -> DBusError {
        var error = error
        guard dbus_error_is_set(&error) != 0 else { return DBusError(name: DBusError.Name.failed, message: fallback) }
        return DBusError(
            name: error.name.map { String(cString: $0) } ?? DBusError.Name.failed,
            message: error.message.map { String(cString: $0) } ?? fallback)
    }

    deinit {
        loop.submit { $0.shutDown() }
    }

    /// Closes the connection: calls in flight fail with `Disconnected`, signal streams finish.
    package func close() {
        loop.submit { $0.shutDown() }
    }

    /// Whether the connection has closed (by `close()`, or because the bus went away).
    package var isClosed: Bool {
        get async { await onLoop { $0.isClosed } }
    }

    /// How many signal streams are live on this connection.
    var signalSubscriberCount: Int {
        get async {
            let state = state
            return await onLoop { _ in state.subscriberCount }
        }
    }

    /// Runs `body` on the loop thread and returns its result.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (DBusLoop) -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.submit { continuation.resume(returning: body($0)) }
        }
    }

    // MARK: Calls

    /// Sends a method call and returns the reply; a D-Bus error reply is thrown as `DBusError`.
    package func call(_ message: DBusMessage, timeout: Duration = defaultTimeout) async throws(DBusError) -> DBusMessage {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let result = await withCheckedContinuation { continuation in
            loop.submit { $0.sendWithReply(message, timeoutMilliseconds: milliseconds, continuation) }
        }
        return try result.get()
    }

    /// Calls `member` and returns the reply's arguments.
    package func call(
        destination: String, path: DBusObjectPath, interface: String, member: String,
        _ arguments: [DBusValue] = [], timeout: Duration = defaultTimeout
    ) async throws(DBusError) -> [DBusValue] {
        let message = DBusMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, body: arguments)
        return try await call(message, timeout: timeout).body
    }

    /// Sends a message without waiting for any reply (signals, fire-and-forget calls).
    package func send(_ message: DBusMessage) async throws(DBusError) {
        try await onLoop { $0.send(message) }.get()
    }

    // MARK: The bus daemon

    static let busName = "org.freedesktop.DBus"
    static let busPath: DBusObjectPath = "/org/freedesktop/DBus"

    func callBus(_ member: String, _ arguments: [DBusValue]) async throws(DBusError) -> [DBusValue] {
        try await call(destination: Self.busName, path: Self.busPath, interface: Self.busName, member: member, arguments)
    }

    /// Asks for a well-known name; fails if another connection owns it.
    package func requestName(_ name: String) async throws(DBusError) {
        let doNotQueue: UInt32 = 4
        let reply = try await callBus("RequestName", [.string(name), .uint32(doNotQueue)])
        guard case .uint32(let code)? = reply.first, code == 1 || code == 4 else {
            throw DBusError(name: "org.freedesktop.DBus.Error.NameTaken", message: "\(name) is owned by another connection")
        }
    }

    /// The unique name owning `name` now, or `nil` when nobody does.
    package func nameOwner(of name: String) async throws(DBusError) -> String? {
        do {
            let reply = try await callBus("GetNameOwner", [.string(name)])
            if case .string(let owner)? = reply.first { return owner }
            return nil
        } catch  where error.name == DBusError.Name.nameHasNoOwner {
            return nil
        }
    }

    // MARK: Signals

    /// The signals matching `rule`, from the moment this returns until the stream is dropped or
    /// the connection closes. A well-known sender is followed across owner changes.
    package func signals(matching rule: DBusMatchRule) async throws(DBusError) -> AsyncStream<DBusMessage> {
        let (stream, continuation) = AsyncStream<DBusMessage>.makeStream()
        let subscription = try await subscribe(matching: rule, { continuation.yield($0) }, finished: { continuation.finish() })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// Calls `deliver` with each signal matching `rule`, on the connection's own thread, until
    /// the subscription is cancelled or the connection closes (then `finished` is called).
    /// For hot paths: a handler that picks out what it needs and yields it to its consumer
    /// saves the hand-over through an intermediate stream and task that `signals(matching:)`
    /// costs. `deliver` must not block. With `includingClaimed` false, the signals a
    /// `subscribe(toBytesOf:…)` subscriber took whole are left out (a mirror of the sender's
    /// objects that has no use for every notification saves their decoding).
    package func subscribe(
        matching rule: DBusMatchRule, includingClaimed: Bool = true, _ deliver: @escaping @Sendable (DBusMessage) -> Void,
        finished: @escaping @Sendable () -> Void
    ) async throws(DBusError) -> DBusSubscription {
        try await addMatch(rule) { state in
            state.subscribe(ConnectionState.Subscriber(rule: rule, includesClaimed: includingClaimed, deliver: deliver, finish: finished))
        }
    }

    /// Registers a subscriber on the loop thread (`register` returns its id) and its rule with
    /// the bus; cancelling the subscription undoes both.
    func addMatch(
        _ rule: DBusMatchRule, register: @escaping @Sendable (ConnectionState) -> UInt64
    ) async throws(DBusError) -> DBusSubscription {
        if let sender = rule.sender, !sender.hasPrefix(":"), sender != Self.busName {
            try await track(name: sender)
        }
        let state = state
        let id = await onLoop { _ in register(state) }
        let subscription = DBusSubscription { [loop] in
            loop.submit { loop in
                state.unsubscribe(id)
                loop.send(
                    DBusMessage.methodCall(
                        destination: Self.busName, path: Self.busPath, interface: Self.busName,
                        member: "RemoveMatch", body: [.string(rule.description)]
                    ).noReply())
            }
        }
        do {
            _ = try await callBus("AddMatch", [.string(rule.description)])
        } catch {
            subscription.cancel()
            throw error
        }
        return subscription
    }

    /// Polls `descriptor` on the connection's own thread and calls `readable` there whenever it
    /// has data; `readable` drains it without blocking and returns false once it is done (end of
    /// file, an error). Then, or on `cancel()`, or when the connection closes, `ended` is called,
    /// once, on that thread. For sockets a bus call hands out (BlueZ's `AcquireNotify`): their
    /// reads share the one thread the bus already has, and wake nothing else.
    ///
    /// With a `rest`, the descriptor is left alone for as long as `rest` says after each turn
    /// that found it ready, together with every other watch that has one: what arrives
    /// meanwhile waits in the kernel. For sockets that another thread gathers
    /// (`NotificationSockets`), watched here for their end and read here only when that thread
    /// has not come for a while.
    package func watch(
        readable descriptor: Int32, rest: (@Sendable () -> Duration)? = nil, _ readable: @escaping @Sendable () -> Bool,
        ended: @escaping @Sendable () -> Void
    ) async -> DBusSubscription {
        let watch = DBusLoop.DescriptorWatch(descriptor: descriptor, rest: rest, readable: readable, ended: ended)
        let id = await onLoop { loop in loop.addDescriptorWatch(watch) }
        return DBusSubscription { [loop] in
            loop.submit { loop in loop.removeDescriptorWatch(id) }
        }
    }

    /// Each change of `name`'s owner: the new unique name, or `nil` when the name is released
    /// (for `org.bluez`, `nil` means bluetoothd stopped).
    package func nameOwnerChanges(of name: String) async throws(DBusError) -> AsyncStream<String?> {
        let signals = try await signals(
            matching: DBusMatchRule(
                sender: Self.busName, interface: Self.busName, member: "NameOwnerChanged", arg0: name))
        return AsyncStream { continuation in
            let task = Task {
                for await signal in signals {
                    guard signal.body.count == 3, case .string(let newOwner) = signal.body[2] else { continue }
                    continuation.yield(newOwner.isEmpty ? nil : newOwner)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Starts following `name`'s owner so rules naming it match signals from its unique name.
    private func track(name: String) async throws(DBusError) {
        let state = state
        guard await onLoop({ _ in state.startTracking(name) }) else { return }
        let rule = DBusMatchRule(sender: Self.busName, interface: Self.busName, member: "NameOwnerChanged", arg0: name)
        _ = try await callBus("AddMatch", [.string(rule.description)])
        let owner = try await nameOwner(of: name)
        await onLoop { _ in state.setOwner(owner, of: name) }
    }
}

extension DBusMessage {
    /// The same message, marked as not expecting a reply.
    func noReply() -> DBusMessage {
        var copy = self
        copy.noReplyExpected = true
        return copy
    }
}

private let initialiseThreadsOnce: Void = {
    dbus_threads_init_default()
}()
