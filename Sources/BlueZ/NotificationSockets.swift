import CLinux
import Glibc
import Synchronization

/// The `AcquireNotify` sockets of one bus client whose values are gathered, not read as they
/// come: the daemon's intake gathers them right before each commit (`gather()`), so a
/// notification costs no wake of its own. Each packet carries the kernel's arrival stamp
/// (`SO_TIMESTAMPNS`), so its sample is dated when it came, not when it was read, and what one
/// gather reads from several sockets is handed on in arrival order.
///
/// The gatherer is woken only while packets come: once two gathers in a row found nothing the
/// set is *quiet*, and the bus connection's thread, which watches each socket
/// (`NotificationSocketReader`), tells the gatherer when the next packet comes (`observe`). An
/// idle strap's socket then costs no wake at all. While packets come, that thread looks at the
/// sockets once per gather interval: it sees a socket's end, and reads the sockets itself when
/// nobody has gathered them for two intervals. The intake gathers on the storage thread, which
/// waits while a slow card holds a commit, and bluetoothd drops a notification that finds its
/// socket full (about 278 heart-rate packets: its end is non-blocking, its send buffer Linux's
/// `wmem_default`).
package final class NotificationSockets: Sendable {
    /// How often the sockets want gathering, and how often while one held more than
    /// `busySocket` values at its last gather: a socket then holds at most a few dozen.
    static let gatherEvery: Duration = .seconds(1)
    static let busyGatherEvery: Duration = .milliseconds(250)
    static let busySocket = 64
    /// How late a value may be handed on after it came: the bus thread reads sockets nobody has
    /// gathered for two intervals. A strap's stall deadline allows that much.
    package static let readLag: Duration = gatherEvery * 2
    /// An arrival stamp older than this (or in the future) means the wall clock was stepped
    /// between the packet's arrival and its read: the read time stands instead.
    static let oldestArrival: UInt64 = 5_000_000_000

    private struct Socket {
        let deliver: GattCharacteristic.NotificationHandler
        /// Set once a read found the end (or an error): the bus thread's watch then closes it.
        var ended = false
    }

    private struct Arrival {
        let arrived: Int64
        let value: [UInt8]
        let deliver: GattCharacteristic.NotificationHandler
    }

    private struct State {
        var sockets: [Int32: Socket] = [:]
        /// The one buffer every socket is read into, as long as the longest packet they take.
        var buffer: [UInt8] = []
        var arrivals: [Arrival] = []
        var lastGathered: ContinuousClock.Instant?
        var cadence = NotificationSockets.gatherEvery
        /// Set by `observe`: someone gathers. Until then the bus thread reads as packets come.
        var active: (@Sendable (Bool) -> Void)?
        /// Whether the gatherer has been told to stop (or never started): nothing came for two
        /// gathers. The bus thread's next sight of a packet wakes it.
        var quiet = true
        var emptyGathers = 0

        /// Tells the gatherer to stop gathering, unless it is already told.
        mutating func quieten() {
            guard !quiet else { return }
            quiet = true
            active?(false)
        }
    }

    private let state = Mutex(State())

    /// An empty set, read as packets come until someone observes it (`observe`).
    package init() {}

    /// Makes the caller the sockets' gatherer: `active` is called (under this set's lock, so in
    /// order) with true when packets come to a quiet set, and with false when two gathers in a
    /// row found nothing or the last socket goes. Without a gatherer (a command, a test) the bus
    /// thread reads the sockets as packets come.
    package func observe(_ active: @escaping @Sendable (Bool) -> Void) {
        state.withLock { $0.active = active }
    }

    /// Adds `socket` (non-blocking, stamping arrivals), whose values go to `deliver`.
    func add(_ socket: Int32, maximumLength: Int, deliver: @escaping GattCharacteristic.NotificationHandler) {
        state.withLock { state in
            state.sockets[socket] = Socket(deliver: deliver)
            if state.buffer.count < maximumLength { state.buffer = [UInt8](repeating: 0, count: maximumLength) }
        }
    }

    /// Reads every socket and hands on what they held, oldest arrival first; returns when the
    /// sockets want gathering again (`gatherEvery`, or `busyGatherEvery` after a busy one).
    package func gather() -> Duration {
        state.withLock { state in
            state.lastGathered = .now
            var (busiest, total) = (0, 0)
            for socket in Array(state.sockets.keys) where state.sockets[socket]?.ended == false {
                let count = Self.read(socket, into: &state)
                (busiest, total) = (max(busiest, count), total + count)
            }
            Self.handOn(&state)
            state.cadence = busiest > Self.busySocket ? Self.busyGatherEvery : Self.gatherEvery
            state.emptyGathers = total == 0 ? state.emptyGathers + 1 : 0
            if state.emptyGathers >= 2 { state.quieten() }
            return state.cadence
        }
    }

    /// How often the sockets want gathering now: the bus thread's watch rests that long (not
    /// at all while nobody gathers).
    var cadence: Duration { state.withLock { $0.active == nil ? .zero : $0.cadence } }

    /// What the bus thread does with a socket it found ready: wakes the gatherer of a quiet set
    /// (false: the gatherer reads it), and otherwise reads the sockets (true) when nobody
    /// gathers or they have gone ungathered for two intervals. At most three intervals' worth
    /// waits in a socket (its rest, then this).
    func shouldReadOnBusThread() -> Bool {
        state.withLock { state in
            guard let active = state.active else { return true }
            if state.quiet {
                // The window for the fallback counts from here: the gatherer starts now.
                (state.quiet, state.emptyGathers, state.lastGathered) = (false, 0, .now)
                active(true)
                return false
            }
            guard let last = state.lastGathered else { return true }
            return last.duration(to: .now) >= state.cadence * 2
        }
    }

    /// Whether a read found `socket`'s end.
    func hasEnded(_ socket: Int32) -> Bool {
        state.withLock { $0.sockets[socket]?.ended ?? true }
    }

    /// Hands on what `socket` still holds, then forgets and closes it.
    func end(_ socket: Int32) {
        state.withLock { state in
            guard state.sockets[socket] != nil else { return }
            if state.sockets[socket]?.ended == false { _ = Self.read(socket, into: &state) }
            Self.handOn(&state)
            state.sockets[socket] = nil
            close(socket)
            if state.sockets.isEmpty { state.quieten() }
        }
    }

    /// Reads `socket` until it is empty; returns how many values it held.
    private static func read(_ socket: Int32, into state: inout State) -> Int {
        guard let deliver = state.sockets[socket]?.deliver else { return 0 }
        var count = 0
        while true {
            var arrived: Int64 = 0
            let length = state.buffer.withUnsafeMutableBytes { clinux_receive_stamped(socket, $0.baseAddress, $0.count, &arrived) }
            if length > 0 {
                state.arrivals.append(Arrival(arrived: arrived, value: Array(state.buffer[..<length]), deliver: deliver))
                count += 1
            } else if length < 0 && errno == EINTR {
                continue
            } else {
                if !(length < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { state.sockets[socket]?.ended = true }
                return count
            }
        }
    }

    /// Hands on every value read, oldest arrival first (a socket's values keep their order),
    /// each with how long ago it arrived.
    private static func handOn(_ state: inout State) {
        guard !state.arrivals.isEmpty else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        if state.arrivals.count > 1 {
            state.arrivals = state.arrivals.enumerated()
                .sorted { ($0.element.arrived, $0.offset) < ($1.element.arrived, $1.offset) }.map(\.element)
        }
        for arrival in state.arrivals { arrival.deliver(arrival.value, age(of: arrival.arrived, now: nanoseconds)) }
        state.arrivals.removeAll(keepingCapacity: true)
    }

    /// How long before `now` a packet stamped `arrived` came: 0 without a stamp or with one the
    /// clock contradicts.
    static func age(of arrived: Int64, now: Int64) -> UInt64 {
        guard arrived > 0, now > arrived, UInt64(now - arrived) <= oldestArrival else { return 0 }
        return UInt64(now - arrived)
    }
}
