@testable import BlueZ
import CLinux
import Glibc
import Synchronization
import Testing

@Suite("Notification sockets gathered together, their values handed on in arrival order")
struct NotificationSocketsTests {
    /// A connected `SOCK_SEQPACKET` pair, as bluetoothd hands out: the reading end non-blocking
    /// and stamping arrivals.
    static func socketPair() throws -> (reader: Int32, writer: Int32) {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        try #require(clinux_stamp_arrivals(pair[0]) == 0)
        return (pair[0], pair[1])
    }

    static func send(_ value: UInt8, to writer: Int32) {
        var packet: [UInt8] = [value]
        #expect(Glibc.send(writer, &packet, 1, 0) == 1)
    }

    @Test("values of two sockets are handed on by arrival, each socket's in its order, with their ages")
    func gathersInArrivalOrder() throws {
        let sockets = NotificationSockets()
        sockets.observe { _ in }
        let handed = Mutex<[(value: UInt8, age: UInt64)]>([])
        let deliver: GattCharacteristic.NotificationHandler = { value, age in handed.withLock { $0.append((value[0], age)) } }
        let (a, b) = (try Self.socketPair(), try Self.socketPair())
        defer { for end in [a.writer, b.writer] { close(end) } }
        sockets.add(a.reader, maximumLength: 512, deliver: deliver)
        sockets.add(b.reader, maximumLength: 512, deliver: deliver)
        for value in 1 ... 6 as ClosedRange<UInt8> {
            Self.send(value, to: value % 2 == 1 ? a.writer : b.writer)
            usleep(2_000)
        }
        usleep(20_000)
        #expect(sockets.gather() == NotificationSockets.gatherEvery)
        let values = handed.withLock { $0 }
        #expect(values.map(\.value) == [1, 2, 3, 4, 5, 6])
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.age > $1.age })
        // At least the 20 ms slept since the last send; a stamp over five seconds old would
        // count as a clock step (dated 0), which only a machine stalled that long could see.
        #expect(values.allSatisfy { $0.age >= 20_000_000 && $0.age < 5_000_000_000 })
        #expect(sockets.gather() == NotificationSockets.gatherEvery)
        #expect(handed.withLock { $0.count } == 6, "each value is handed on once")
        sockets.end(a.reader)
        sockets.end(b.reader)
    }

    @Test("the bus thread's sight of a packet wakes the gatherer of quiet sockets; two empty gathers in a row, or the last socket's end, quieten them")
    func quietSocketsWakeTheGatherer() throws {
        let sockets = NotificationSockets()
        let active = Mutex<[Bool]>([])
        sockets.observe { value in active.withLock { $0.append(value) } }
        let (a, b) = (try Self.socketPair(), try Self.socketPair())
        defer { for end in [a.writer, b.writer] { close(end) } }
        sockets.add(a.reader, maximumLength: 512) { _, _ in }
        sockets.add(b.reader, maximumLength: 512) { _, _ in }
        #expect(active.withLock { $0 }.isEmpty, "a new socket wakes nobody: it may stay silent")
        Self.send(1, to: a.writer)
        #expect(!sockets.shouldReadOnBusThread(), "the gatherer reads it")
        #expect(active.withLock { $0 } == [true])
        #expect(!sockets.shouldReadOnBusThread(), "gathered recently enough")
        _ = sockets.gather()
        _ = sockets.gather()
        #expect(active.withLock { $0 } == [true], "one empty gather is not quiet")
        _ = sockets.gather()
        #expect(active.withLock { $0 } == [true, false])
        Self.send(2, to: b.writer)
        #expect(!sockets.shouldReadOnBusThread())
        #expect(active.withLock { $0 } == [true, false, true])
        sockets.end(a.reader)
        sockets.end(b.reader)
        #expect(active.withLock { $0 } == [true, false, true, false])
    }

    @Test("a socket whose peer closed is marked ended once read; its end hands on what it still held, then closes it")
    func endedSocket() throws {
        let sockets = NotificationSockets()
        let handed = Mutex<[UInt8]>([])
        let pair = try Self.socketPair()
        sockets.add(pair.reader, maximumLength: 512) { value, _ in handed.withLock { $0.append(value[0]) } }
        Self.send(7, to: pair.writer)
        _ = sockets.gather()
        #expect(!sockets.hasEnded(pair.reader))
        Self.send(8, to: pair.writer)
        close(pair.writer)
        _ = sockets.gather()
        #expect(sockets.hasEnded(pair.reader))
        #expect(handed.withLock { $0 } == [7, 8])

        let other = try Self.socketPair()
        defer { close(other.writer) }
        sockets.add(other.reader, maximumLength: 512) { value, _ in handed.withLock { $0.append(value[0]) } }
        Self.send(9, to: other.writer)
        sockets.end(other.reader)
        #expect(handed.withLock { $0 } == [7, 8, 9], "what the socket held at its end is handed on")
        #expect(fcntl(other.reader, F_GETFD) == -1, "the socket is closed")
        sockets.end(pair.reader)
    }

    @Test(
        "a socket that held more than 64 values at a gather asks for the next four times sooner, until it holds few again; unobserved sockets are read at once"
    )
    func busySocketIsGatheredSooner() throws {
        let sockets = NotificationSockets()
        #expect(sockets.cadence == .zero && sockets.shouldReadOnBusThread(), "while nobody gathers, the bus thread reads as packets come")
        sockets.observe { _ in }
        let pair = try Self.socketPair()
        defer { close(pair.writer) }
        sockets.add(pair.reader, maximumLength: 512) { _, _ in }
        for _ in 0 ... NotificationSockets.busySocket { Self.send(1, to: pair.writer) }
        #expect(sockets.gather() == NotificationSockets.busyGatherEvery)
        #expect(sockets.cadence == NotificationSockets.busyGatherEvery)
        for _ in 0 ..< NotificationSockets.busySocket { Self.send(1, to: pair.writer) }
        #expect(sockets.gather() == NotificationSockets.gatherEvery)
        sockets.end(pair.reader)
    }

    @Test("a value without a stamp, or with one the clock contradicts, is dated by its read")
    func untrustedStampsCountAsNow() {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let now = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        #expect(NotificationSockets.age(of: 0, now: now) == 0)
        #expect(NotificationSockets.age(of: now + 5_000_000, now: now) == 0, "a stamp ahead of the clock")
        #expect(NotificationSockets.age(of: now - 6_000_000_000, now: now) == 0, "a stamp older than five seconds")
        #expect(NotificationSockets.age(of: now - 2_300_000_000, now: now) == 2_300_000_000)
    }
}
