import DBus

/// An `org.bluez.Agent1` that has no display and no keyboard (`NoInputNoOutput`), as neither a
/// gateway box nor a strap has: it confirms and authorizes for the devices it is told to, and
/// refuses passkeys and PIN codes, which nobody could read or type.
///
/// bluetoothd asks the agent of the process that calls `Pair()`, else the default agent, else
/// pairs with no agent at all. A process that registers its own agent for the time it pairs
/// therefore gets the same answers on every box, whatever else (a desktop's agent, another
/// service's) is registered as the default.
package struct PairingAgent: Sendable {
    /// One question bluetoothd asked, and the answer given: what the caller logs or reports.
    package struct Request: Sendable, Equatable {
        /// The `org.bluez.Agent1` method (`RequestConfirmation`, `RequestPasskey` …).
        package let method: String
        /// The device the question is about.
        package let device: DBusObjectPath
        /// Whether the agent said yes.
        package let accepted: Bool

        init(_ call: DBusMethodInvocation, accepted: Bool) {
            method = call.message.member ?? ""
            device = call.arguments.first?.objectPath ?? .root
            self.accepted = accepted
        }
    }

    /// The capability the agent registers with: bluetoothd and the kernel then choose Just Works.
    package static let capability = "NoInputNoOutput"

    /// The connection the agent is exported on; bluetoothd ties the registration to it.
    package let connection: DBusConnection
    /// Where the agent object lives on `connection`.
    package let path: DBusObjectPath
    private let accepts: @Sendable (DBusObjectPath) -> Bool
    private let observe: @Sendable (Request) -> Void

    /// An agent at `path` on `connection` that says yes for the devices `accepts` admits and
    /// tells `observe` about every question.
    package init(
        connection: DBusConnection, path: DBusObjectPath, accepting accepts: @escaping @Sendable (DBusObjectPath) -> Bool,
        observe: @escaping @Sendable (Request) -> Void = { _ in }
    ) {
        self.connection = connection
        self.path = path
        self.accepts = accepts
        self.observe = observe
    }

    /// Exports the agent and registers it with bluetoothd; with `asDefault`, also as the agent for
    /// pairings nobody on this box started (a peripheral's side).
    package func register(asDefault: Bool = false) async throws(BlueZError) {
        await connection.export(path, [DBusExportedInterface(interface)])
        try await callAgentManager("RegisterAgent", [.objectPath(path), .string(Self.capability)])
        if asDefault { try await callAgentManager("RequestDefaultAgent", [.objectPath(path)]) }
    }

    /// Unregisters and unexports the agent. bluetoothd also forgets it when the connection closes,
    /// so a failure here (bluetoothd gone) leaves nothing behind and is not reported.
    package func unregister() async {
        try? await callAgentManager("UnregisterAgent", [.objectPath(path)])
        await connection.unexport(path)
    }

    private func callAgentManager(_ member: String, _ arguments: [DBusValue]) async throws(BlueZError) {
        do {
            _ = try await connection.call(
                destination: BlueZName.service, path: BlueZName.root, interface: BlueZName.agentManager, member: member,
                arguments)
        } catch {
            throw BlueZError(error, operation: "\(member) \(path)")
        }
    }

    private var interface: DBusInterfaceDescription {
        let device = DBusArgument("device", "o")
        let answer: @Sendable (DBusMethodInvocation) async throws -> [DBusValue] = { [accepts, observe] call in
            let request = Request(call, accepted: accepts(call.arguments.first?.objectPath ?? .root))
            observe(request)
            guard request.accepted else { throw Self.rejected("\(request.device) is not the device being paired") }
            return []
        }
        let refuse: @Sendable (DBusMethodInvocation) async throws -> [DBusValue] = { [observe] call in
            observe(Request(call, accepted: false))
            throw Self.rejected("this side has no display and no keyboard: only Just Works pairing is possible")
        }
        return DBusInterfaceDescription(
            name: "org.bluez.Agent1",
            methods: [
                DBusMethodDescription("Release") { _ in [] },
                DBusMethodDescription("Cancel") { _ in [] },
                DBusMethodDescription("RequestAuthorization", inputs: [device], handler: answer),
                DBusMethodDescription("RequestConfirmation", inputs: [device, DBusArgument("passkey", "u")], handler: answer),
                DBusMethodDescription("AuthorizeService", inputs: [device, DBusArgument("uuid", "s")], handler: answer),
                DBusMethodDescription("RequestPinCode", inputs: [device], outputs: [DBusArgument("pincode", "s")], handler: refuse),
                DBusMethodDescription("RequestPasskey", inputs: [device], outputs: [DBusArgument("passkey", "u")], handler: refuse),
                DBusMethodDescription("DisplayPinCode", inputs: [device, DBusArgument("pincode", "s")], handler: refuse),
                DBusMethodDescription(
                    "DisplayPasskey", inputs: [device, DBusArgument("passkey", "u"), DBusArgument("entered", "q")], handler: refuse),
            ])
    }

    private static func rejected(_ message: String) -> DBusError {
        DBusError(name: "org.bluez.Error.Rejected", message: message)
    }
}
