import DBus
import Testing

@Suite("D-Bus method calls")
struct DBusCallTests {
    @Test("returns a peer's error reply as a DBusError carrying its name and message")
    func typedErrors() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/test", [DBusExportedInterface(BusFixture.testInterface)])
        let error = await #expect(throws: DBusError.self) {
            try await fixture.client.call(
                destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test",
                member: "Fail", [.string("org.bluez.Error.InProgress"), .string("Operation already in progress")])
        }
        #expect(error == DBusError(name: "org.bluez.Error.InProgress", message: "Operation already in progress"))
    }

    @Test("times out a call that gets no reply, with NoReply, and the connection stays usable")
    func timeout() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/test", [DBusExportedInterface(BusFixture.testInterface)])
        let error = await #expect(throws: DBusError.self) {
            try await fixture.client.call(
                destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test",
                member: "Sleep", [.uint32(30_000)], timeout: .milliseconds(300))
        }
        #expect(error?.name == DBusError.Name.noReply)
        let echo = try await fixture.client.call(
            destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test",
            member: "Echo", [.variant(.int32(1))])
        #expect(echo == [.variant(.int32(1))])
    }

    @Test("answers unknown objects, interfaces, methods and wrong argument types with the standard errors")
    func standardErrors() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/test", [DBusExportedInterface(BusFixture.testInterface)])
        let cases: [(DBusObjectPath, String, String, [DBusValue], String)] = [
            ("/nothing", "org.example.Test", "Echo", [.variant(.int32(1))], DBusError.Name.unknownObject),
            ("/test", "org.example.Other", "Echo", [.variant(.int32(1))], DBusError.Name.unknownInterface),
            ("/test", "org.example.Test", "Nope", [], DBusError.Name.unknownMethod),
            ("/test", "org.example.Test", "Echo", [.int32(1)], DBusError.Name.invalidArgs),
        ]
        for (path, interface, member, arguments, expected) in cases {
            let error = await #expect(throws: DBusError.self) {
                try await fixture.client.call(
                    destination: fixture.server.uniqueName, path: path, interface: interface, member: member, arguments)
            }
            #expect(error?.name == expected, "\(path) \(interface).\(member)")
        }
    }

    @Test("serves a call whose handler calls back into the caller without deadlocking either side")
    func reentrantCallsDoNotDeadlock() async throws {
        let fixture = try await BusFixture.start()
        let client = fixture.client
        // The client exports an "agent"; the server's method calls the agent before replying,
        // as bluetoothd does with a pairing agent while the client waits for Pair().
        await client.export(
            "/agent",
            [
                DBusExportedInterface(
                    DBusInterfaceDescription(
                        name: "org.example.Agent",
                        methods: [DBusMethodDescription("Confirm", outputs: [DBusArgument("ok", "b")]) { _ in [.boolean(true)] }]))
            ])
        let server = fixture.server
        await server.export(
            "/test",
            [
                DBusExportedInterface(
                    DBusInterfaceDescription(
                        name: "org.example.Pairing",
                        methods: [
                            DBusMethodDescription("Pair", outputs: [DBusArgument("confirmed", "b")]) { [weak server] call in
                                guard let server else { throw DBusError(name: DBusError.Name.failed, message: "closed") }
                                return try await server.call(destination: call.sender, path: "/agent", interface: "org.example.Agent", member: "Confirm")
                            }
                        ]))
            ])
        let reply = try await client.call(
            destination: server.uniqueName, path: "/test", interface: "org.example.Pairing", member: "Pair",
            timeout: .seconds(20))
        #expect(reply == [.boolean(true)])
    }

    @Test("serves many concurrent calls, each getting its own reply")
    func concurrentCalls() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/test", [DBusExportedInterface(BusFixture.testInterface)])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0 ..< 100 {
                group.addTask {
                    let reply = try await fixture.client.call(
                        destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test",
                        member: "Echo", [.variant(.int32(Int32(index)))])
                    #expect(reply == [.variant(.int32(Int32(index)))])
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("fails calls after close with Disconnected")
    func callAfterClose() async throws {
        let fixture = try await BusFixture.start()
        fixture.client.close()
        let error = await #expect(throws: DBusError.self) {
            try await fixture.client.call(
                destination: fixture.server.uniqueName, path: "/test", interface: "org.example.Test", member: "Echo",
                [.variant(.int32(1))])
        }
        #expect(error?.name == DBusError.Name.disconnected)
        #expect(await fixture.client.isClosed)
    }
}
