import DBus
import ProcessThreads

/// A live mirror of bluetoothd's objects: `GetManagedObjects` once, then kept current from
/// `InterfacesAdded`/`InterfacesRemoved`/`PropertiesChanged`, and re-read whenever bluetoothd
/// restarts (its name vanishes and returns, with new object paths).
///
/// Everything the gateway knows about adapters, devices and GATT objects comes from here, so a
/// restart or a link loss is seen in one place, in order.
package actor BlueZClient {
    /// The bus connection everything goes through.
    package nonisolated let connection: DBusConnection
    /// The `AcquireNotify` sockets whose values the daemon's intake gathers before each commit.
    package nonisolated let notificationSockets = NotificationSockets()
    private var objects: [DBusObjectPath: [String: [String: DBusValue]]] = [:]
    private var subscribers: [UInt64: AsyncStream<BlueZEvent>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var watchers: [Task<Void, Never>] = []
    /// Whether bluetoothd is on the bus now.
    package private(set) var isDaemonRunning = false
    /// How many times bluetoothd has (re)appeared since this client started.
    package private(set) var daemonStarts = 0

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when set) and mirrors bluetoothd.
    /// Works when bluetoothd is not running yet: it is picked up when it appears.
    package static func connect(_ bus: DBusConnection.Bus = .system) async throws(DBusError) -> BlueZClient {
        let connection = try await DBusConnection.connect(bus)
        return try await start(on: connection)
    }

    /// Mirrors bluetoothd over an existing connection.
    package static func start(on connection: DBusConnection) async throws(DBusError) -> BlueZClient {
        let client = BlueZClient(connection: connection)
        let (signals, continuation) = AsyncStream<DBusMessage>.makeStream()
        // Notifications (a characteristic's new `Value`, ten times a second per strap) are left
        // on the connection's thread: they go to their own subscriber alone, which claims them
        // undecoded, and those nobody claims are dropped here. Mirroring them would wake this
        // client, and publishing them every strap's event streams, per beat.
        let subscription = try await connection.subscribe(
            matching: DBusMatchRule(sender: BlueZName.service), includingClaimed: false,
            { signal in if !isNotification(signal) { continuation.yield(signal) } },
            finished: { continuation.finish() })
        continuation.onTermination = { _ in subscription.cancel() }
        let owners = try await connection.nameOwnerChanges(of: BlueZName.service)
        await client.watch(signals: signals, owners: owners)
        if try await connection.nameOwner(of: BlueZName.service) != nil {
            await client.reload()
        }
        return client
    }

    private func watch(signals: AsyncStream<DBusMessage>, owners: AsyncStream<String?>) {
        watchers.append(
            Task { [weak self] in
                for await signal in signals { await self?.apply(signal) }
                await self?.finishSubscribers()
            })
        watchers.append(
            Task { [weak self] in
                for await owner in owners {
                    if owner == nil { await self?.daemonStopped() } else { await self?.reload() }
                }
            })
    }

    /// Stops mirroring and closes the connection; event streams finish.
    package func close() {
        watchers.forEach { $0.cancel() }
        connection.close()
        finishSubscribers()
    }

    // MARK: Events

    /// Every change from now on. The stream ends when the client closes.
    package func events() -> AsyncStream<BlueZEvent> {
        let (stream, continuation) = AsyncStream<BlueZEvent>.makeStream()
        nextSubscriber += 1
        let id = nextSubscriber
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: UInt64) { subscribers.removeValue(forKey: id) }

    private func publish(_ event: BlueZEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    private func finishSubscribers() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    // MARK: Mirror upkeep

    private func reload() async {
        let reply: [DBusValue]
        do {
            reply = try await connection.call(
                destination: BlueZName.service, path: .root, interface: BlueZName.objectManager, member: "GetManagedObjects")
        } catch {
            return
        }
        var fresh: [DBusObjectPath: [String: [String: DBusValue]]] = [:]
        for (path, interfaces) in reply.first?.objectPathDictionary ?? [:] {
            fresh[path] = Self.interfaces(from: interfaces)
        }
        objects = fresh
        isDaemonRunning = true
        daemonStarts += 1
        for (path, interfaces) in fresh.sorted(by: { $0.key < $1.key }) {
            publish(.interfacesAdded(path, interfaces))
        }
        publish(.daemonStarted)
    }

    private func daemonStopped() {
        guard isDaemonRunning || !objects.isEmpty else { return }
        objects.removeAll()
        isDaemonRunning = false
        publish(.daemonStopped)
    }

    private func apply(_ signal: DBusMessage) {
        guard let member = signal.member else { return }
        switch (signal.interface, member) {
        case (BlueZName.objectManager?, "InterfacesAdded"):
            guard signal.body.count == 2, let path = signal.body[0].objectPath else { return }
            let added = Self.interfaces(from: signal.body[1])
            objects[path, default: [:]].merge(added) { _, new in new }
            publish(.interfacesAdded(path, added))
        case (BlueZName.objectManager?, "InterfacesRemoved"):
            guard signal.body.count == 2, let path = signal.body[0].objectPath, let names = signal.body[1].strings else { return }
            for name in names { objects[path]?.removeValue(forKey: name) }
            if objects[path]?.isEmpty == true { objects.removeValue(forKey: path) }
            publish(.interfacesRemoved(path, names))
        case (BlueZName.properties?, "PropertiesChanged"):
            guard let path = signal.path, signal.body.count >= 2, let interface = signal.body[0].string,
                let changed = signal.body[1].stringDictionary?.mapValues(\.unwrapped)
            else { return }
            if objects[path]?[interface] != nil {
                objects[path]?[interface]?.merge(changed) { _, new in new }
                for name in signal.body.count > 2 ? signal.body[2].strings ?? [] : [] {
                    objects[path]?[interface]?.removeValue(forKey: name)
                }
            }
            publish(.propertiesChanged(path, interface: interface, changed))
        default:
            break
        }
    }

    /// Whether `signal` is a notification: a `PropertiesChanged` of a GATT characteristic that
    /// changes its `Value` and nothing else.
    private static func isNotification(_ signal: DBusMessage) -> Bool {
        guard signal.member == "PropertiesChanged", signal.interface == BlueZName.properties, signal.body.count >= 2,
            signal.body[0].string == BlueZName.gattCharacteristic, let changed = signal.body[1].stringDictionary
        else { return false }
        return changed.keys.allSatisfy { $0 == "Value" }
    }

    private static func interfaces(from value: DBusValue) -> [String: [String: DBusValue]] {
        (value.stringDictionary ?? [:]).mapValues { $0.stringDictionary?.mapValues(\.unwrapped) ?? [:] }
    }

    // MARK: Queries

    /// The interfaces and properties of the object at `path`.
    package func object(at path: DBusObjectPath) -> [String: [String: DBusValue]]? {
        objects[path]
    }

    /// One property from the mirror.
    package func property(_ name: String, of interface: String, at path: DBusObjectPath) -> DBusValue? {
        objects[path]?[interface]?[name]
    }

    /// The paths of objects that have `interface`, below `ancestor` when given, in path order.
    package func paths(with interface: String, under ancestor: DBusObjectPath = .root) -> [DBusObjectPath] {
        objects.filter { $0.value[interface] != nil && $0.key.isDescendant(of: ancestor) }.map(\.key).sorted()
    }

    /// The adapters (`hci0` …).
    package func adapters() -> [Adapter] {
        paths(with: BlueZName.adapter).map { Adapter(client: self, path: $0) }
    }

    /// The adapter called `name` (`hci0`), if present.
    package func adapter(named name: String) -> Adapter? {
        adapters().first { $0.path.lastElement == name }
    }

    /// The devices bluetoothd knows on `adapter` (all adapters when nil).
    package func devices(on adapter: Adapter? = nil) -> [Device] {
        paths(with: BlueZName.device, under: adapter?.path ?? .root).map { Device(client: self, path: $0) }
    }

    /// The device whose object is at `path`, if it is one.
    package func device(at path: DBusObjectPath) -> Device? {
        objects[path]?[BlueZName.device] == nil ? nil : Device(client: self, path: path)
    }

    /// The device with `address` on `adapter` (any adapter when nil).
    package func device(address: String, on adapter: Adapter? = nil) -> Device? {
        devices(on: adapter).first { objects[$0.path]?[BlueZName.device]?["Address"]?.string?.uppercased() == address.uppercased() }
    }

    /// The characteristic with `uuid` below `device`, found by UUID (paths differ per device
    /// and firmware). Only meaningful once the device's `ServicesResolved` is true.
    package func characteristic(_ uuid: String, of device: Device) -> GattCharacteristic? {
        let wanted = uuid.lowercased()
        return paths(with: BlueZName.gattCharacteristic, under: device.path)
            .first { objects[$0]?[BlueZName.gattCharacteristic]?["UUID"]?.string?.lowercased() == wanted }
            .map { GattCharacteristic(client: self, path: $0) }
    }

    /// Waits until `condition` holds for the mirror, or `timeout` passes, or the calling task is
    /// cancelled (a daemon stopping must not sit out a 30 s wait for a strap); returns whether
    /// it held.
    package func wait(
        timeout: Duration, until condition: @escaping @Sendable (isolated BlueZClient) -> Bool
    ) async -> Bool {
        if condition(self) { return true }
        let events = events()
        // Both racers are the group's children, so cancelling the caller cancels them too.
        let result = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [weak self] in
                for await _ in events {
                    guard let self else { return false }
                    if await self.check(condition) { return true }
                }
                return false
            }
            group.addTask {
                try? await ProcessExecutor.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        return result || condition(self)
    }

    private func check(_ condition: @Sendable (isolated BlueZClient) -> Bool) -> Bool {
        condition(self)
    }
}
