import DBus
import GatewayTestSupport
import Testing

@Suite("Exported objects: Properties, ObjectManager, Introspectable")
struct DBusObjectServerTests {
    static let widget = DBusInterfaceDescription(
        name: "org.example.Widget",
        properties: [
            DBusPropertyDescription("Name", "s"),
            DBusPropertyDescription("Level", "y") { value, _ in
                guard let level = value.integer, level <= 100 else {
                    throw DBusError(name: "org.example.Error.InvalidLevel", message: "level must be 0–100")
                }
            },
        ])

    @Test("answers Get and GetAll from stored values, and GetManagedObjects for every object below the manager")
    func propertiesAndManagedObjects() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.addObjectManager(at: "/")
        await fixture.server.export("/org/example/w1", [DBusExportedInterface(Self.widget, properties: ["Name": .string("one"), "Level": .byte(5)])])
        let get = try await fixture.client.call(
            destination: fixture.server.uniqueName, path: "/org/example/w1", interface: "org.freedesktop.DBus.Properties",
            member: "Get", [.string("org.example.Widget"), .string("Name")])
        #expect(get == [.variant(.string("one"))])
        let all = try await fixture.client.call(
            destination: fixture.server.uniqueName, path: "/org/example/w1", interface: "org.freedesktop.DBus.Properties",
            member: "GetAll", [.string("org.example.Widget")])
        #expect(all.first?.stringDictionary?.mapValues(\.unwrapped) == ["Name": .string("one"), "Level": .byte(5)])
        let managed = try await fixture.client.call(
            destination: fixture.server.uniqueName, path: "/", interface: "org.freedesktop.DBus.ObjectManager",
            member: "GetManagedObjects")
        let objects = try #require(managed.first?.objectPathDictionary)
        #expect(Array(objects.keys) == ["/org/example/w1"])
        #expect(objects["/org/example/w1"]?.stringDictionary?["org.example.Widget"]?.stringDictionary?["Name"]?.string == "one")
    }

    @Test("emits InterfacesAdded, PropertiesChanged for real changes only, and InterfacesRemoved")
    func lifecycleSignals() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.addObjectManager(at: "/")
        let signals = try await fixture.client.signals(matching: DBusMatchRule(sender: fixture.server.uniqueName))
        await fixture.server.export("/w", [DBusExportedInterface(Self.widget, properties: ["Name": .string("a"), "Level": .byte(1)])])
        await fixture.server.setProperties("/w", interface: "org.example.Widget", ["Name": .string("a")])
        await fixture.server.setProperties("/w", interface: "org.example.Widget", ["Name": .string("b"), "Level": .byte(1)])
        await fixture.server.unexport("/w")
        let received = await collect(3, from: signals)
        #expect(received.map { $0.member } == ["InterfacesAdded", "PropertiesChanged", "InterfacesRemoved"])
        #expect(received[1].body == [.string("org.example.Widget"), .properties(["Name": .string("b")]), .strings([])])
        #expect(received[2].body.last?.strings?.contains("org.example.Widget") == true)
    }

    @Test("runs a writable property's setter on Set, returns its error, and refuses read-only properties")
    func setProperty() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/w", [DBusExportedInterface(Self.widget, properties: ["Name": .string("a"), "Level": .byte(1)])])
        func set(_ name: String, _ value: DBusValue) async throws {
            _ = try await fixture.client.call(
                destination: fixture.server.uniqueName, path: "/w", interface: "org.freedesktop.DBus.Properties",
                member: "Set", [.string("org.example.Widget"), .string(name), .variant(value)])
        }
        try await set("Level", .byte(50))
        let invalid = await #expect(throws: DBusError.self) { try await set("Level", .byte(200)) }
        #expect(invalid?.name == "org.example.Error.InvalidLevel")
        let readOnly = await #expect(throws: DBusError.self) { try await set("Name", .string("x")) }
        #expect(readOnly?.name == DBusError.Name.propertyReadOnly)
        let wrongType = await #expect(throws: DBusError.self) { try await set("Level", .string("x")) }
        #expect(wrongType?.name == DBusError.Name.invalidArgs)
    }

    @Test("introspects objects and the intermediate nodes above them, so tree walkers find everything")
    func introspection() async throws {
        let fixture = try await BusFixture.start()
        await fixture.server.export("/org/example/w1", [DBusExportedInterface(Self.widget)])
        func introspect(_ path: DBusObjectPath) async throws -> String {
            try await fixture.client.call(
                destination: fixture.server.uniqueName, path: path, interface: "org.freedesktop.DBus.Introspectable",
                member: "Introspect"
            ).first?.string ?? ""
        }
        #expect(try await introspect("/").contains(#"<node name="org"/>"#))
        #expect(try await introspect("/org").contains(#"<node name="example"/>"#))
        let leaf = try await introspect("/org/example/w1")
        #expect(leaf.contains(#"<interface name="org.example.Widget">"#))
        #expect(leaf.contains(#"<property name="Level" type="y" access="readwrite"/>"#))
        #expect(leaf.contains(#"<property name="Name" type="s" access="read"/>"#))
    }
}
