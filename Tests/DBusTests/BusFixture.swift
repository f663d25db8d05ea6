import BlueZSimulator
import DBus

/// A private bus with two connections on it: `server` exports objects, `client` calls them.
struct BusFixture: Sendable {
    let bus: PrivateBus
    let server: DBusConnection
    let client: DBusConnection

    static func start() async throws -> BusFixture {
        let bus = try PrivateBus()
        return BusFixture(
            bus: bus,
            server: try await DBusConnection.connect(.address(bus.address)),
            client: try await DBusConnection.connect(.address(bus.address)))
    }

    /// An object at `/test` with `org.example.Test` methods that exercise the layer.
    static let testInterface = DBusInterfaceDescription(
        name: "org.example.Test",
        methods: [
            DBusMethodDescription("Echo", inputs: [DBusArgument("value", "v")], outputs: [DBusArgument("value", "v")]) { call in
                call.arguments
            },
            DBusMethodDescription("Fail", inputs: [DBusArgument("name", "s"), DBusArgument("message", "s")]) { call in
                throw DBusError(name: call.arguments[0].string!, message: call.arguments[1].string!)
            },
            DBusMethodDescription("Sleep", inputs: [DBusArgument("milliseconds", "u")]) { call in
                try await Task.sleep(for: .milliseconds(call.arguments[0].integer!))
                return []
            },
        ],
        properties: [DBusPropertyDescription("Name", "s")])
}
