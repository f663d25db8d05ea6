import CBlueZ
import Glibc
import ProcessThreads
import Synchronization

/// Drives one libdbus connection from one dedicated thread.
///
/// Every libdbus call for the connection happens on this thread: other threads hand it jobs
/// through `submit`, which wakes its `poll`. The thread never waits for a reply: calls complete
/// through pending-call callbacks and method handlers run as tasks that reply later. So an
/// exported object that calls out while serving a call cannot deadlock the connection (the
/// BlueZ agent deadlock in docs/ble-heart-rate.md).
final class DBusLoop: @unchecked Sendable {
    /// A unit of work for the loop thread.
    typealias Job = @Sendable (DBusLoop) -> Void

    /// Jobs waiting for the thread, and whether the thread has ended (after which jobs run on
    /// the submitting thread, one at a time, and find the connection closed).
    private let jobs = Mutex<(queue: [Job], threadEnded: Bool)>(([], false))
    private let lateJobs = Mutex(())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    // Loop-thread state. Touched only from jobs and libdbus callbacks.
    private(set) var connection: OpaquePointer?
    private var watches: [OpaquePointer] = []
    private var timeouts: [(timeout: OpaquePointer, deadline: ContinuousClock.Instant?)] = []
    private(set) var isClosed = false
    /// Called for every incoming message that is not a reply to one of our calls.
    var incoming: (DBusLoop, OpaquePointer) -> Void = { _, _ in }
    /// Called once, on the loop thread, when the connection closes for any reason.
    var closing: (DBusLoop) -> Void = { _ in }
    private var pendingCalls: [OpaquePointer: CheckedContinuation<Result<DBusMessage, DBusError>, Never>] = [:]
    /// Other descriptors polled on this thread (`DBusConnection.watch(readable:rest:_:ended:)`).
    private var descriptorWatches: [UInt64: DescriptorWatch] = [:]
    private var nextDescriptorWatch: UInt64 = 0
    /// Whether the wake pipe has bytes to drain: set when `poll` finds it readable (and at
    /// start), so a loop woken by the bus alone makes no `read` of it.
    private var wakeSignalled = true
    /// What the last `poll` waited on, kept between turns so a turn allocates nothing: the
    /// descriptors (the wake pipe's first, then those of `polled`, then those of
    /// `polledWatchIDs`), the libdbus watches among them, and the ids of the descriptor watches.
    private var descriptors: [pollfd] = []
    private var polled: [OpaquePointer] = []
    private var polledWatchIDs: [UInt64] = []
    /// Until when the resting descriptor watches are left out of `poll`: set after a turn that
    /// found one of them ready, so what comes meanwhile waits in their sockets.
    private var restingUntil: ContinuousClock.Instant?
    /// How long the bus itself rests after a turn that handed out claimed property bytes and
    /// left its socket empty (`DBusConnection.restAfterPropertyBytes(for:)`); zero: never.
    var propertyBytesRest: Duration = .zero
    /// Set when a turn's messages included claimed property bytes (by `ConnectionState`).
    var deliveredPropertyBytes = false
    /// Until when the bus's socket is left out of `poll` (while no reply is due).
    private var busRestingUntil: ContinuousClock.Instant?

    /// A descriptor read on the loop thread: `readable` drains it and says whether to go on.
    /// With a `rest`, once it has been found ready it is not polled again for as long as `rest`
    /// then says (nor is any other watch with a rest: they rest together, so several sockets
    /// share a wake).
    struct DescriptorWatch {
        let descriptor: Int32
        let rest: (@Sendable () -> Duration)?
        let readable: @Sendable () -> Bool
        let ended: @Sendable () -> Void
    }

    init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "cannot create the D-Bus loop's wake pipe")
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Queues `job` for the loop thread and wakes it. Jobs run in submission order.
    func submit(_ job: @escaping Job) {
        let queued = jobs.withLock { state in
            if !state.threadEnded { state.queue.append(job) }
            return !state.threadEnded
        }
        if queued {
            var one: UInt8 = 1
            _ = write(wakeWrite, &one, 1)
        } else {
            lateJobs.withLock { _ in job(self) }
        }
    }

    /// Starts the thread: `open` runs on it first (it may block, e.g. on the bus handshake) and
    /// returns the connection, or an error which ends the thread.
    func start(open: @escaping @Sendable () -> Result<OpaquePointer, DBusError>) async -> Result<Void, DBusError> {
        await withCheckedContinuation { (started: CheckedContinuation<Result<Void, DBusError>, Never>) in
            DetachedThread.start(name: "egw-dbus") { [self] in
                switch open() {
                case .failure(let error):
                    started.resume(returning: .failure(error))
                case .success(let connection):
                    self.connection = connection
                    self.installCallbacks()
                    started.resume(returning: .success(()))
                    self.run()
                }
            }
        }
    }

    // MARK: Calls

    /// Sends a method call and resumes with its reply (an error reply as `.failure`).
    /// Loop thread only.
    func sendWithReply(
        _ message: DBusMessage, timeoutMilliseconds: Int32,
        _ continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>
    ) {
        guard let connection, !isClosed else { return continuation.resume(returning: .failure(.disconnected)) }
        let cMessage: OpaquePointer
        do {
            cMessage = try DBusMessageCodec.makeCMessage(message)
        } catch {
            return continuation.resume(returning: .failure(error))
        }
        defer { dbus_message_unref(cMessage) }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, cMessage, &pending, timeoutMilliseconds) != 0,
            let pending
        else { return continuation.resume(returning: .failure(.disconnected)) }
        pendingCalls[pending] = continuation
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_pending_call_set_notify(
            pending,
            { pending, context in
                guard let pending, let context else { return }
                Unmanaged<DBusLoop>.fromOpaque(context).takeUnretainedValue().complete(pending)
            }, context, nil)
    }

    private func complete(_ pending: OpaquePointer) {
        guard let continuation = pendingCalls.removeValue(forKey: pending) else { return }
        defer { dbus_pending_call_unref(pending) }
        guard let reply = dbus_pending_call_steal_reply(pending) else {
            return continuation.resume(returning: .failure(.disconnected))
        }
        defer { dbus_message_unref(reply) }
        let message = DBusMessageCodec.readMessage(reply)
        if message.kind == .error {
            let text = if case .string(let text)? = message.body.first { text } else { "" }
            continuation.resume(returning: .failure(DBusError(name: message.errorName ?? DBusError.Name.failed, message: text)))
        } else {
            continuation.resume(returning: .success(message))
        }
    }

    /// Sends a message that expects no reply. Loop thread only.
    @discardableResult
    func send(_ message: DBusMessage) -> Result<Void, DBusError> {
        guard let connection, !isClosed else { return .failure(.disconnected) }
        do {
            let cMessage = try DBusMessageCodec.makeCMessage(message)
            defer { dbus_message_unref(cMessage) }
            guard dbus_connection_send(connection, cMessage, nil) != 0 else { return .failure(.disconnected) }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Closes the connection; the thread ends after this job. Loop thread only.
    func shutDown() {
        guard !isClosed else { return }
        isClosed = true
        closing(self)
        for id in Array(descriptorWatches.keys) { removeDescriptorWatch(id) }
        for (pending, continuation) in pendingCalls {
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            continuation.resume(returning: .failure(.disconnected))
        }
        pendingCalls.removeAll()
        if let connection { dbus_connection_close(connection) }
    }

    /// Starts polling `watch`'s descriptor; returns its id. Loop thread only.
    func addDescriptorWatch(_ watch: DescriptorWatch) -> UInt64 {
        guard !isClosed else {
            watch.ended()
            return 0
        }
        nextDescriptorWatch += 1
        descriptorWatches[nextDescriptorWatch] = watch
        return nextDescriptorWatch
    }

    /// Stops polling a descriptor and calls its `ended` (once). Loop thread only.
    func removeDescriptorWatch(_ id: UInt64) {
        descriptorWatches.removeValue(forKey: id)?.ended()
    }

    // MARK: The loop

    private func run() {
        while !isClosed {
            runJobs()
            dispatchIncoming()
            if isClosed { break }
            if let connection, dbus_connection_get_is_connected(connection) == 0 {
                shutDown()
                break
            }
            pollOnce()
        }
        runJobs()
        lateJobs.withLock { _ in
            if let connection {
                dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
                dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
                dbus_connection_unref(connection)
            }
            connection = nil
            watches.removeAll()
            timeouts.removeAll()
            let remaining = jobs.withLock { state in
                state.threadEnded = true
                defer { state.queue.removeAll() }
                return state.queue
            }
            for job in remaining { job(self) }
        }
    }

    private func runJobs() {
        if wakeSignalled {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                while read(wakeRead, buffer.baseAddress, buffer.count) > 0 {}
            }
            wakeSignalled = false
        }
        while true {
            let batch = jobs.withLock { state -> [Job] in
                defer { state.queue.removeAll() }
                return state.queue
            }
            if batch.isEmpty { return }
            for job in batch { job(self) }
        }
    }

    private func dispatchIncoming() {
        guard let connection else { return }
        while !isClosed && dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
        guard deliveredPropertyBytes else { return }
        deliveredPropertyBytes = false
        // Rest only once the socket is drained: libdbus reads about 2 kB a turn, and a backlog
        // left behind would grow by a rest's worth each turn.
        guard propertyBytesRest > .zero, let socket = busSocket else { return }
        var probe = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) == 0 else { return }
        busRestingUntil = ContinuousClock.now.advanced(by: propertyBytesRest)
    }

    /// The connection's socket to the bus, while it has one.
    var busSocket: Int32? {
        var socket: Int32 = -1
        guard let connection, dbus_connection_get_socket(connection, &socket) != 0 else { return nil }
        return socket
    }

    private func pollOnce() {
        descriptors.removeAll(keepingCapacity: true)
        polled.removeAll(keepingCapacity: true)
        polledWatchIDs.removeAll(keepingCapacity: true)
        descriptors.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
        let now = ContinuousClock.now
        if let until = busRestingUntil, until <= now || !pendingCalls.isEmpty { busRestingUntil = nil }
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            // A resting bus still sends what is queued for it: only its reading waits.
            if busRestingUntil != nil { events &= ~Int16(POLLIN) }
            if events == 0 { continue }
            descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            polled.append(watch)
        }
        if let until = restingUntil, until <= now { restingUntil = nil }
        for (id, watch) in descriptorWatches where restingUntil == nil || watch.rest == nil {
            descriptors.append(pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0))
            polledWatchIDs.append(id)
        }
        var nearest = restingUntil
        if let until = busRestingUntil { nearest = min(nearest ?? until, until) }
        for entry in timeouts {
            guard let deadline = entry.deadline else { continue }
            nearest = min(nearest ?? deadline, deadline)
        }
        let waitMilliseconds: Int32 =
            nearest.map { deadline in
                let remaining = now.duration(to: deadline)
                return remaining <= .zero
                    ? 0
                    : Int32(
                        clamping: remaining.components.seconds * 1000
                            + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            } ?? -1
        let ready = poll(&descriptors, nfds_t(descriptors.count), waitMilliseconds)
        if ready > 0 {
            if descriptors[0].revents != 0 { wakeSignalled = true }
            for (index, watch) in polled.enumerated() {
                let revents = descriptors[index + 1].revents
                guard revents != 0, watches.contains(watch) else { continue }
                var flags: UInt32 = 0
                if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
                if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
                if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
                if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
                dbus_watch_handle(watch, flags)
            }
            for (offset, id) in polledWatchIDs.enumerated() where descriptors[1 + polled.count + offset].revents != 0 {
                guard let watch = descriptorWatches[id] else { continue }
                if let rest = watch.rest {
                    let until = ContinuousClock.now.advanced(by: rest())
                    restingUntil = max(restingUntil ?? until, until)
                }
                if !watch.readable() { removeDescriptorWatch(id) }
            }
        }
        let after = ContinuousClock.now
        for entry in timeouts {
            guard let deadline = entry.deadline, deadline <= after,
                timeouts.contains(where: { $0.timeout == entry.timeout })
            else { continue }
            rearm(entry.timeout)
            dbus_timeout_handle(entry.timeout)
        }
    }

    // MARK: libdbus callbacks

    private func installCallbacks() {
        guard let connection else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_exit_on_disconnect(connection, 0)
        dbus_connection_set_watch_functions(
            connection,
            { watch, context in
                guard let watch, let context else { return 0 }
                Unmanaged<DBusLoop>.fromOpaque(context).takeUnretainedValue().watches.append(watch)
                return 1
            },
            { watch, context in
                guard let watch, let context else { return }
                Unmanaged<DBusLoop>.fromOpaque(context).takeUnretainedValue().watches.removeAll { $0 == watch }
            },
            nil, context, nil)
        dbus_connection_set_timeout_functions(
            connection,
            { timeout, context in
                guard let timeout, let context else { return 0 }
                let loop = Unmanaged<DBusLoop>.fromOpaque(context).takeUnretainedValue()
                loop.timeouts.append((timeout, nil))
                loop.rearm(timeout)
                return 1
            },
            { timeout, context in
                guard let timeout, let context else { return }
                Unmanaged<DBusLoop>.fromOpaque(context).takeUnretainedValue().timeouts.removeAll { $0.timeout == timeout }
            },
            { timeout, context in
                guard let timeout, let context else { return }
                Unmanaged<DBusLoop>.fromOpaque(context).takeUnretainedValue().rearm(timeout)
            },
            context, nil)
        dbus_connection_add_filter(
            connection,
            { _, message, context in
                guard let message, let context else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                let loop = Unmanaged<DBusLoop>.fromOpaque(context).takeUnretainedValue()
                loop.incoming(loop, message)
                // Handled, whatever its type: `incoming` serves every message, and libdbus's own
                // object tree, where an unhandled message would go next, has nothing registered.
                // It would still split each signal's path into components, seven allocations
                // per notification.
                return DBUS_HANDLER_RESULT_HANDLED
            }, context, nil)
    }

    private func rearm(_ timeout: OpaquePointer) {
        guard let index = timeouts.firstIndex(where: { $0.timeout == timeout }) else { return }
        timeouts[index].deadline =
            dbus_timeout_get_enabled(timeout) != 0
            ? ContinuousClock.now.advanced(by: .milliseconds(Int(dbus_timeout_get_interval(timeout))))
            : nil
    }
}
