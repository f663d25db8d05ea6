import DBus

/// A GATT characteristic (`org.bluez.GattCharacteristic1`), always found by UUID.
package struct GattCharacteristic: BlueZObject {
    /// The interface `invoke`, `setProperty` and `property` address on this object.
    package static let interface = BlueZName.gattCharacteristic
    /// The mirror this handle was looked up in; calls go out over its connection.
    package let client: BlueZClient
    /// bluetoothd's object path: the handle's identity (handles at the same path are equal).
    package let path: DBusObjectPath

    /// The characteristic's UUID in BlueZ's lower-case 128-bit form.
    package var uuid: String? {
        get async { await property("UUID")?.string }
    }

    /// Its GATT properties as BlueZ names them (`read`, `notify`, `write` …).
    package var flags: [String] {
        get async { await property("Flags")?.strings ?? [] }
    }

    /// Reads the value. Never use this on 0x2A37: bluetoothd also reports a read as a `Value`
    /// change, which would look like a notification.
    package func read() async throws(BlueZError) -> [UInt8] {
        let reply = try await invoke("ReadValue", [.properties([:])], operation: "Read \(path.lastElement)")
        return reply.first?.bytes ?? []
    }

    /// Writes `bytes` with a write request (acknowledged by the peer).
    package func write(_ bytes: [UInt8]) async throws(BlueZError) {
        _ = try await invoke(
            "WriteValue", [.bytes(bytes), .properties(["type": .string("request")])],
            operation: "Write \(path.lastElement)")
    }

    /// How notifications reach this process.
    package enum NotificationTransport: Sendable, Equatable {
        /// Through a socket from `AcquireNotify`: one read per notification, no D-Bus traffic.
        case acquired(mtu: Int)
        /// Through `StartNotify` and a `PropertiesChanged` signal per notification.
        case propertiesChanged
    }

    /// Takes each notified value, with how many nanoseconds before the call it arrived: from
    /// `AcquireNotify`'s socket, which is gathered after its packets come (`NotificationSockets`),
    /// the kernel's stamp of each packet's arrival says; a `PropertiesChanged` signal is handed
    /// on as soon as it is read (0).
    package typealias NotificationHandler = @Sendable (_ value: [UInt8], _ arrivedNanosecondsAgo: UInt64) -> Void

    /// A running notification subscription. The frames stream ends when the subscription does:
    /// link loss, the characteristic vanishing, bluetoothd stopping, or `stop()`.
    package struct Notifications: Sendable {
        /// The notified values in arrival order; empty when a handler takes them, but it still
        /// ends when the subscription does.
        package let frames: AsyncStream<[UInt8]>
        /// Which mechanism is in use: `AcquireNotify`'s socket (with its MTU) or `StartNotify`'s
        /// `PropertiesChanged` signals.
        package let transport: NotificationTransport
        let stopper: @Sendable () -> Void

        /// Ends the subscription (and tells bluetoothd, which stops notifying).
        package func stop() { stopper() }
    }

    /// Subscribes to notifications: `AcquireNotify` when bluetoothd offers it (and
    /// `preferAcquire`), else `StartNotify`. Must be called again after every reconnection:
    /// bluetoothd forgets notify sessions when the link drops.
    ///
    /// With a `handler`, each value is given to it instead of to the frames stream, on the thread
    /// that reads it: no task is woken per notification. It must be quick and must not block.
    /// A `PropertiesChanged` value is handed on by the connection's thread as it is read; an
    /// `AcquireNotify` socket joins the client's `notificationSockets`, whose gatherer (the
    /// daemon's intake) reads it, and the connection's thread only when nobody gathers. Without
    /// a handler the stream's values carry no arrival time, so the socket is read as they come.
    package func notifications(
        preferAcquire: Bool = true, handler: NotificationHandler? = nil
    ) async throws(BlueZError) -> Notifications {
        let ended = await endOfLife()
        if preferAcquire, await property("NotifyAcquired") != nil,
            let acquired = try? await acquire(ended: ended, handler: handler)
        {
            return acquired
        }
        return try await startNotify(ended: ended, handler: handler)
    }

    /// A stream that yields once when this characteristic disappears or bluetoothd stops.
    private func endOfLife() async -> AsyncStream<Void> {
        let events = await client.events()
        let path = path
        return AsyncStream { continuation in
            let task = Task {
                for await event in events {
                    switch event {
                    case .daemonStopped:
                        continuation.yield()
                    case .interfacesRemoved(let removed, let names)
                    where names.contains(BlueZName.gattCharacteristic) && path.isDescendant(of: removed):
                        continuation.yield()
                    default:
                        continue
                    }
                    break
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func acquire(ended: AsyncStream<Void>, handler: NotificationHandler?) async throws(BlueZError) -> Notifications {
        let reply = try await invoke("AcquireNotify", [.properties([:])], operation: "Acquire notifications of \(path.lastElement)")
        guard reply.count == 2, let socket = reply[0].fileDescriptor, let mtu = reply[1].integer else {
            throw BlueZError(
                DBusError(name: DBusError.Name.failed, message: "unexpected AcquireNotify reply"),
                operation: "Acquire notifications of \(path.lastElement)")
        }
        let (frames, reader) = await NotificationSocketReader.start(
            socket: socket.duplicate(), maximumLength: max(mtu, 512), on: client.connection, sockets: client.notificationSockets,
            handler: handler)
        let watcher = Task {
            for await _ in ended { break }
            reader.cancel()
        }
        return Notifications(frames: frames, transport: .acquired(mtu: mtu)) {
            watcher.cancel()
            reader.cancel()
        }
    }

    private func startNotify(ended: AsyncStream<Void>, handler: NotificationHandler?) async throws(BlueZError) -> Notifications {
        let operation = "Start notifications of \(path.lastElement)"
        let (frames, continuation) = AsyncStream<[UInt8]>.makeStream()
        let deliver: @Sendable ([UInt8]) -> Void
        if let handler {
            deliver = { handler($0, 0) }
        } else {
            deliver = { continuation.yield($0) }
        }
        // Each notification goes from the connection's thread straight to the handler or into
        // the frames stream, read in place from libdbus's message: no decoding, no task between.
        let subscription: DBusSubscription
        do {
            subscription = try await client.connection.subscribe(
                toBytesOf: "Value", of: BlueZName.gattCharacteristic, at: path, from: BlueZName.service, deliver,
                finished: { continuation.finish() })
        } catch {
            throw BlueZError(error, operation: operation)
        }
        let watcher = Task {
            for await _ in ended { break }
            continuation.finish()
        }
        let characteristic = self
        continuation.onTermination = { _ in
            subscription.cancel()
            watcher.cancel()
            Task { _ = try? await characteristic.invoke("StopNotify", operation: "Stop notifications") }
        }
        do {
            _ = try await invoke("StartNotify", operation: operation)
        } catch {
            continuation.finish()
            throw error
        }
        return Notifications(frames: frames, transport: .propertiesChanged) { continuation.finish() }
    }
}
