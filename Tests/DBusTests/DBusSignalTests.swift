import BlueZSimulator
@testable import DBus
import GatewayTestSupport
import Testing

@Suite("D-Bus signals and names")
struct DBusSignalTests {
    @Test("delivers matching signals in order and nothing that does not match")
    func matchingSignalsInOrder() async throws {
        let fixture = try await BusFixture.start()
        let stream = try await fixture.client.signals(
            matching: DBusMatchRule(
                sender: fixture.server.uniqueName, interface: "org.example.Test", member: "Tick"))
        for index in 0 ..< 50 {
            try await fixture.server.emit("/test", interface: "org.example.Test", member: "Tock", [.int32(-1)])
            try await fixture.server.emit("/test", interface: "org.example.Test", member: "Tick", [.int32(Int32(index))])
        }
        let received = await collect(50, from: stream)
        #expect(received.map { $0.body } == (0 ..< 50).map { [.int32(Int32($0))] })
    }

    @Test("follows a well-known sender name to whichever connection owns it")
    func wellKnownSender() async throws {
        let fixture = try await BusFixture.start()
        try await fixture.server.requestName("org.example.Service")
        let stream = try await fixture.client.signals(matching: DBusMatchRule(sender: "org.example.Service", member: "Ping"))
        let impostor = try await DBusConnection.connect(.address(fixture.bus.address))
        try await impostor.emit("/x", interface: "org.example.Test", member: "Ping", [.string("impostor")])
        try await fixture.server.emit("/x", interface: "org.example.Test", member: "Ping", [.string("owner")])
        #expect(await collect(1, from: stream).first?.body == [.string("owner")])

        // The name moves to a new connection (a daemon restart): signals follow it.
        fixture.server.close()
        let restarted = try await DBusConnection.connect(.address(fixture.bus.address))
        #expect(await eventually { (try? await restarted.requestName("org.example.Service")) != nil })
        try await restarted.emit("/x", interface: "org.example.Test", member: "Ping", [.string("restarted")])
        #expect(await collect(1, from: stream).first?.body == [.string("restarted")])
    }

    @Test("reports a name's owner changes, including its disappearance")
    func nameOwnerChanges() async throws {
        let fixture = try await BusFixture.start()
        let changes = try await fixture.client.nameOwnerChanges(of: "org.bluez")
        #expect(try await fixture.client.nameOwner(of: "org.bluez") == nil)
        try await fixture.server.requestName("org.bluez")
        #expect(try await fixture.client.nameOwner(of: "org.bluez") == fixture.server.uniqueName)
        fixture.server.close()
        let seen = await collect(2, from: changes)
        #expect(seen == [fixture.server.uniqueName, nil])
    }

    @Test("ends signal streams cleanly when the connection closes")
    func streamsEndOnClose() async throws {
        let fixture = try await BusFixture.start()
        let stream = try await fixture.client.signals(matching: DBusMatchRule(member: "Never"))
        fixture.client.close()
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count == 0)
    }

    @Test("stops delivering to a subscriber whose stream was dropped, and keeps serving the others")
    func droppedSubscriber() async throws {
        let fixture = try await BusFixture.start()
        let rule = DBusMatchRule(interface: "org.example.Test", member: "Tick")
        var dropped: AsyncStream<DBusMessage>? = try await fixture.client.signals(matching: rule)
        let kept = try await fixture.client.signals(matching: rule)
        #expect(await fixture.client.signalSubscriberCount == 2)
        _ = dropped
        dropped = nil
        #expect(await eventually { await fixture.client.signalSubscriberCount == 1 })
        try await fixture.server.emit("/test", interface: "org.example.Test", member: "Tick", [.int32(1)])
        #expect(await collect(1, from: kept).first?.body == [.int32(1)])
    }
}
