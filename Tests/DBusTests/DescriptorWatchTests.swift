import DBus
import GatewayTestSupport
import Glibc
import Synchronization
import Testing

/// Sockets read on the connection's own thread (how `AcquireNotify` sockets are read).
@Suite("D-Bus connection: descriptors polled on its thread")
struct DescriptorWatchTests {
    /// What a watch saw: packets read, and how many times it ended.
    final class Seen: Sendable {
        let packets = Mutex<[[UInt8]]>([])
        /// How many packets each call of `readable` read, and when each call began.
        let reads = Mutex<[Int]>([])
        let readStarts = Mutex<[ContinuousClock.Instant]>([])
        let ends = Mutex(0)
    }

    static func socketPair() throws -> (Int32, Int32) {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        return (pair[0], pair[1])
    }

    static func watch(_ reader: Int32, on connection: DBusConnection, rest: Duration? = nil, seen: Seen) async -> DBusSubscription {
        var resting: (@Sendable () -> Duration)? = nil
        if let rest { resting = { @Sendable in rest } }
        return await connection.watch(
            readable: reader, rest: resting,
            {
                seen.readStarts.withLock { $0.append(.now) }
                var buffer = [UInt8](repeating: 0, count: 64)
                var read = 0
                defer { seen.reads.withLock { $0.append(read) } }
                while true {
                    let count = recv(reader, &buffer, buffer.count, 0)
                    if count > 0 {
                        read += 1
                        seen.packets.withLock { $0.append(Array(buffer.prefix(count))) }
                    } else {
                        return count < 0 && errno == EAGAIN
                    }
                }
            },
            ended: { seen.ends.withLock { $0 += 1 } })
    }

    @Test("packets are read in order as they arrive; the peer closing ends the watch once")
    func readsUntilPeerCloses() async throws {
        let fixture = try await BusFixture.start()
        let (reader, writer) = try Self.socketPair()
        defer { close(reader) }
        let seen = Seen()
        _ = await Self.watch(reader, on: fixture.client, seen: seen)
        for index in 0 ..< 20 {
            var packet: [UInt8] = [UInt8(index), 0x48]
            #expect(send(writer, &packet, packet.count, 0) == 2)
        }
        try await waitUntil { seen.packets.withLock { $0.count } == 20 }
        #expect(seen.packets.withLock { $0 } == (0 ..< 20).map { [UInt8($0), 0x48] })
        close(writer)
        try await waitUntil { seen.ends.withLock { $0 } == 1 }
    }

    /// Runs `body` with a bus, the writing end of a socket pair whose reading end is watched on
    /// it (with `rest`), what the watch sees, and the watch; closes both ends afterwards.
    static func withWatchedSocket(
        rest: Duration? = nil, _ body: (BusFixture, _ writer: Int32, Seen, DBusSubscription) async throws -> Void
    ) async throws {
        let fixture = try await BusFixture.start()
        let (reader, writer) = try socketPair()
        defer {
            close(reader)
            close(writer)
        }
        let seen = Seen()
        let watch = await Self.watch(reader, on: fixture.client, rest: rest, seen: seen)
        try await body(fixture, writer, seen, watch)
    }

    @Test("a watch with a rest is left alone that long after a read: what comes meanwhile is read in one call")
    func restGathersReads() async throws {
        let rest = Duration.seconds(3)
        try await Self.withWatchedSocket(rest: rest) { fixture, writer, seen, _ in
            var packet: [UInt8] = [0, 0x48]
            #expect(send(writer, &packet, packet.count, 0) == 2)
            try await waitUntil { seen.packets.withLock { $0.count } == 1 }
            for index in 1 ... 5 {
                packet[0] = UInt8(index)
                #expect(send(writer, &packet, packet.count, 0) == 2)
            }
            // The bus is served while the socket rests.
            #expect(try await fixture.client.nameOwner(of: "org.freedesktop.DBus") != nil)
            try await waitUntil { seen.packets.withLock { $0.count } == 6 }
            #expect(seen.packets.withLock { $0.map(\.[0]) } == [0, 1, 2, 3, 4, 5])
            #expect(seen.reads.withLock { $0 } == [1, 5], "the five sent during the rest are read together")
            let starts = seen.readStarts.withLock { $0 }
            try #require(starts.count == 2)
            // The rest is counted from just before the first read began.
            #expect(starts[0].duration(to: starts[1]) >= rest - .milliseconds(50))
        }
    }

    @Test("cancelling ends the watch once, however often it is cancelled, and the connection still works")
    func cancelEndsOnce() async throws {
        try await Self.withWatchedSocket { fixture, _, seen, watch in
            watch.cancel()
            watch.cancel()
            try await waitUntil { seen.ends.withLock { $0 } == 1 }
            #expect(try await fixture.client.nameOwner(of: "org.freedesktop.DBus") != nil)
            #expect(seen.ends.withLock { $0 } == 1)
        }
    }
}
