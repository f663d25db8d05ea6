import DBus

/// What adapters, devices and characteristics share: a path in the mirror and calls to
/// bluetoothd that map D-Bus errors to `BlueZError`.
package protocol BlueZObject: Sendable, Hashable {
    /// The mirror the object lives in.
    var client: BlueZClient { get }
    /// bluetoothd's object path.
    var path: DBusObjectPath { get }
    /// The interface the object's methods belong to.
    static var interface: String { get }
}

extension BlueZObject {
    /// Objects are the same when they are at the same path.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.path == rhs.path }
    /// Hashes the path alone, consistent with `==`: handles from different lookups coincide.
    package func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// Calls `member` on this object, with `operation` naming it in errors.
    func invoke(
        _ member: String, _ arguments: [DBusValue] = [], operation: String, timeout: Duration = DBusConnection.defaultTimeout
    ) async throws(BlueZError) -> [DBusValue] {
        do {
            return try await client.connection.call(
                destination: BlueZName.service, path: path, interface: Self.interface, member: member,
                arguments, timeout: timeout)
        } catch {
            throw BlueZError(error, operation: operation)
        }
    }

    /// Sets a property through `org.freedesktop.DBus.Properties.Set`.
    func setProperty(_ name: String, _ value: DBusValue, operation: String) async throws(BlueZError) {
        do {
            _ = try await client.connection.call(
                destination: BlueZName.service, path: path, interface: BlueZName.properties, member: "Set",
                [.string(Self.interface), .string(name), .variant(value)])
        } catch {
            throw BlueZError(error, operation: operation)
        }
    }

    /// A property of this object's main interface, from the mirror.
    package func property(_ name: String) async -> DBusValue? {
        await client.property(name, of: Self.interface, at: path)
    }
}
