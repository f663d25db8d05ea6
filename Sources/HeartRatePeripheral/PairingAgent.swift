import BlueZ
import DBus

/// The strap's side of pairing: a `NoInputNoOutput` agent that accepts Just Works, as a
/// strap's firmware does. bluetoothd asks an agent to confirm even Just Works (LE Secure
/// Connections has both sides confirm); with no agent registered it refuses the pairing with
/// `AuthenticationFailed`, so the peripheral registers this one as the default agent.
struct PairingAgent: Sendable {
    static let path: DBusObjectPath = "/org/edgegateway/agent"

    let connection: DBusConnection

    /// Exports the `org.bluez.Agent1` object and makes it bluetoothd's default agent.
    func register() async throws(DBusError) {
        let accept: @Sendable (DBusMethodInvocation) async throws -> [DBusValue] = { call in
            PeripheralLog.event("agent", "\"accepted\":\"\(call.message.member ?? "")\"")
            return []
        }
        let reject: @Sendable (DBusMethodInvocation) async throws -> [DBusValue] = { _ in
            throw DBusError(name: "org.bluez.Error.Rejected", message: "a strap has no display and no keyboard")
        }
        let device = DBusArgument("device", "o")
        await connection.export(
            Self.path,
            [
                DBusExportedInterface(
                    DBusInterfaceDescription(
                        name: "org.bluez.Agent1",
                        methods: [
                            DBusMethodDescription("Release") { _ in [] },
                            DBusMethodDescription("Cancel") { _ in [] },
                            DBusMethodDescription("RequestAuthorization", inputs: [device], handler: accept),
                            DBusMethodDescription("RequestConfirmation", inputs: [device, DBusArgument("passkey", "u")], handler: accept),
                            DBusMethodDescription("AuthorizeService", inputs: [device, DBusArgument("uuid", "s")], handler: accept),
                            DBusMethodDescription("RequestPinCode", inputs: [device], outputs: [DBusArgument("pincode", "s")], handler: reject),
                            DBusMethodDescription("RequestPasskey", inputs: [device], outputs: [DBusArgument("passkey", "u")], handler: reject),
                        ]))
            ])
        for (member, arguments) in [
            ("RegisterAgent", [DBusValue.objectPath(Self.path), .string("NoInputNoOutput")]),
            ("RequestDefaultAgent", [DBusValue.objectPath(Self.path)]),
        ] {
            _ = try await connection.call(
                destination: BlueZName.service, path: BlueZName.root, interface: BlueZName.agentManager,
                member: member, arguments)
        }
    }
}
