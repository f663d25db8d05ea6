@testable import DBus
import Glibc
import GatewayTestSupport
import Testing

@Suite("D-Bus byte-array property subscriptions")
struct DBusPropertyBytesTests {
    static let interface = "org.example.Characteristic"

    /// `PropertiesChanged` of `Self.interface`: `changed`, and `invalidated` names.
    static func changed(_ changed: [String: DBusValue], invalidated: [String] = [], interface: String = interface) -> [DBusValue] {
        [.string(interface), .properties(changed), .strings(invalidated)]
    }

    /// A stream of what a `subscribe(toBytesOf: "Value", …)` on `/char` from `sender` delivers.
    static func values(on fixture: BusFixture, from sender: String) async throws -> (AsyncStream<[UInt8]>, DBusSubscription) {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let subscription = try await fixture.client.subscribe(
            toBytesOf: "Value", of: interface, at: "/char", from: sender, { continuation.yield($0) },
            finished: { continuation.finish() })
        return (stream, subscription)
    }

    @Test("delivers the property's bytes from its sender, path and interface only, in order, and nothing of another type")
    func deliversOnlyTheSubscribedProperty() async throws {
        let fixture = try await BusFixture.start()
        try await fixture.server.requestName("org.example.Strap")
        let (values, subscription) = try await Self.values(on: fixture, from: "org.example.Strap")
        defer { subscription.cancel() }
        let impostor = try await DBusConnection.connect(.address(fixture.bus.address))
        let properties = "org.freedesktop.DBus.Properties"
        try await fixture.server.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([0x16, 72])]))
        try await fixture.server.emit("/other", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([1])]))
        try await fixture.server.emit(
            "/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([2])], interface: "org.example.Other"))
        try await fixture.server.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .string("x")]))
        try await fixture.server.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Notifying": .boolean(true)]))
        try await impostor.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([3])]))
        try await fixture.server.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([])]))
        try await fixture.server.emit(
            "/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([0x10, 60, 0, 4])]))
        #expect(await collect(3, from: values) == [[0x16, 72], [], [0x10, 60, 0, 4]])
    }

    @Test("follows its well-known sender to a new owner (bluetoothd restarted): the new owner's values arrive, and are claimed; another connection's do not")
    func followsTheSenderToItsNewOwner() async throws {
        let fixture = try await BusFixture.start()
        try await fixture.server.requestName("org.example.Strap")
        let (values, subscription) = try await Self.values(on: fixture, from: "org.example.Strap")
        defer { subscription.cancel() }
        // Sees what was not claimed: a value read the slow way (decoded) would show here.
        let (unclaimed, unclaimedContinuation) = AsyncStream<DBusMessage>.makeStream()
        let unclaimedSubscription = try await fixture.client.subscribe(
            matching: DBusMatchRule(sender: "org.example.Strap", member: "PropertiesChanged"), includingClaimed: false,
            { unclaimedContinuation.yield($0) }, finished: { unclaimedContinuation.finish() })
        defer { unclaimedSubscription.cancel() }
        let properties = "org.freedesktop.DBus.Properties"
        try await fixture.server.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([1])]))
        #expect(await collect(1, from: values) == [[1]])

        let restarted = try await DBusConnection.connect(.address(fixture.bus.address))
        fixture.server.close()
        #expect(await eventually { (try? await restarted.requestName("org.example.Strap")) != nil })
        let other = try await DBusConnection.connect(.address(fixture.bus.address))
        try await other.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([9])]))
        try await restarted.emit("/char", interface: properties, member: "PropertiesChanged", Self.changed(["Value": .bytes([2])]))
        #expect(await collect(1, from: values) == [[2]])
        let marker = Self.changed(["Notifying": .boolean(true)])
        try await restarted.emit("/char", interface: properties, member: "PropertiesChanged", marker)
        #expect(await collect(1, from: unclaimed).map(\.body) == [marker], "the values were claimed, never decoded")
    }

    @Test("a signal changing the property alone is claimed: only subscribers that include claimed signals see it")
    func claimedSignalsSkipSubscribersThatOptedOut() async throws {
        let fixture = try await BusFixture.start()
        let sender = fixture.server.uniqueName
        let (values, subscription) = try await Self.values(on: fixture, from: sender)
        defer { subscription.cancel() }
        let rule = DBusMatchRule(sender: sender, member: "PropertiesChanged")
        let everything = try await fixture.client.signals(matching: rule)
        let (mirror, mirrorContinuation) = AsyncStream<DBusMessage>.makeStream()
        let mirrorSubscription = try await fixture.client.subscribe(
            matching: rule, includingClaimed: false, { mirrorContinuation.yield($0) }, finished: { mirrorContinuation.finish() })
        defer { mirrorSubscription.cancel() }
        let properties = "org.freedesktop.DBus.Properties"
        let alone = Self.changed(["Value": .bytes([1])])
        let withMore = Self.changed(["Value": .bytes([2]), "Notifying": .boolean(true)])
        let invalidating = Self.changed(["Value": .bytes([3])], invalidated: ["Flags"])
        for body in [alone, withMore, invalidating] {
            try await fixture.server.emit("/char", interface: properties, member: "PropertiesChanged", body)
        }
        #expect(await collect(3, from: values) == [[1], [2], [3]])
        #expect(await collect(3, from: everything).map(\.body) == [alone, withMore, invalidating])
        #expect(await collect(2, from: mirror).map(\.body) == [withMore, invalidating])
    }

    @Test("with a rest, a value that comes after a read waits on the bus; a call in flight is answered at once, and brings it")
    func restingBusKeepsValuesForTheNextRead() async throws {
        let fixture = try await BusFixture.start()
        let (values, subscription) = try await Self.values(on: fixture, from: fixture.server.uniqueName)
        defer { subscription.cancel() }
        await fixture.client.restAfterPropertyBytes(for: .seconds(3600))
        try await Self.emitValue([1], from: fixture.server)
        #expect(await collect(1, from: values) == [[1]])

        try await Self.emitValue([2], from: fixture.server)
        #expect(await eventually { await Self.waiting(in: fixture.client).count > 0 }, "the value waits in the socket, unread")
        _ = try await fixture.client.nameOwner(of: fixture.server.uniqueName)
        #expect(await collect(1, from: values) == [[2]], "read with the reply, which came after it")
    }

    @Test("a rest starts only once the socket is empty: a backlog longer than one read is handed on whole")
    func restingBusDrainsABacklogFirst() async throws {
        let fixture = try await BusFixture.start()
        let (values, subscription) = try await Self.values(on: fixture, from: fixture.server.uniqueName)
        defer { subscription.cancel() }
        await fixture.client.restAfterPropertyBytes(for: .seconds(3600))
        // The client's thread is held until the whole backlog (about 15 kB, libdbus reads 2 kB
        // a turn) waits in its socket: the last value, unlike any other bytes, is all 0xEE.
        let last = [UInt8](repeating: 0xEE, count: 16)
        let (holding, nowHolding) = AsyncStream<Void>.makeStream()
        let held = Task {
            await fixture.client.onLoop { loop in
                nowHolding.yield()
                return Self.hold(loop, until: last)
            }
        }
        _ = await collect(1, from: holding)
        for value in 0 ..< 100 { try await Self.emitValue([0x00, UInt8(value)], from: fixture.server) }
        try await Self.emitValue(last, from: fixture.server)
        #expect(await held.value, "the backlog reached the socket")
        let expected = (0 ..< 100).map { [0x00, UInt8($0)] } + [last]
        #expect(await collect(101, from: values) == expected)
    }

    @Test("is removed from the connection when cancelled, and ends when the connection closes")
    func removedOnCancelAndEndedWithTheConnection() async throws {
        let fixture = try await BusFixture.start()
        let (_, subscription) = try await Self.values(on: fixture, from: fixture.server.uniqueName)
        #expect(await fixture.client.signalSubscriberCount == 1)
        subscription.cancel()
        #expect(await eventually { await fixture.client.signalSubscriberCount == 0 })

        let (open, _) = try await Self.values(on: fixture, from: fixture.server.uniqueName)
        fixture.client.close()
        var count = 0
        for await _ in open { count += 1 }
        #expect(count == 0)
    }

    static func emitValue(_ bytes: [UInt8], from server: DBusConnection) async throws {
        try await server.emit(
            "/char", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", changed(["Value": .bytes(bytes)]))
    }

    /// The bytes waiting in `connection`'s bus socket, looked at without taking them.
    static func waiting(in connection: DBusConnection) async -> [UInt8] {
        await connection.onLoop { loop in peek(loop) }
    }

    private static func peek(_ loop: DBusLoop) -> [UInt8] {
        guard let socket = loop.busSocket else { return [] }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = recv(socket, &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        return Array(buffer.prefix(max(0, count)))
    }

    /// Holds `loop`'s thread (called on it) until `pattern` waits in its socket; false after 60 s.
    private static func hold(_ loop: DBusLoop, until pattern: [UInt8]) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let bytes = peek(loop)
            if bytes.count >= pattern.count,
                (0 ... bytes.count - pattern.count).contains(where: { bytes[$0 ..< $0 + pattern.count].elementsEqual(pattern) })
            {
                return true
            }
            usleep(10_000)
        }
        return false
    }
}
