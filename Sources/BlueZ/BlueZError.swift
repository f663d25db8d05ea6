import DBus

/// A failure reported by bluetoothd (or on the way to it), with a judgement whether retrying
/// later can help.
///
/// Field experience (docs/ble-heart-rate.md): `InProgress`, `NotReady` and
/// `le-connection-abort-by-local` clear on their own; a missing device or refused pairing does
/// not. The supervisor retries the first kind with backoff and reports the second.
package struct BlueZError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, the stable code (`org.bluez.Error.InProgress`).
    package let name: String
    /// bluetoothd's message (`le-connection-abort-by-local`, `Operation already in progress`).
    package let message: String
    /// What was being done, for the operator (`Connect F0:1D:2E:3C:4B:5A`).
    package let operation: String

    /// Wraps a D-Bus error from `operation`.
    package init(_ error: DBusError, operation: String) {
        name = error.name
        message = error.message
        self.operation = operation
    }

    /// The short code without the namespace (`InProgress`).
    package var code: String {
        String(name.split(separator: ".").last ?? Substring(name))
    }

    /// Whether the same operation may succeed if retried after a pause.
    package var isTransient: Bool {
        if isDaemonUnavailable { return true }
        switch code {
        case "InProgress", "NotReady", "NoReply", "Timeout", "NotConnected", "Disconnected", "LimitsExceeded":
            return true
        case "Failed":
            let lowered = message.lowercased()
            return Self.transientFailures.contains { lowered.contains($0) }
        default:
            return false
        }
    }

    /// The messages of `org.bluez.Error.Failed` (lowercased) after which a later try may succeed.
    /// bluez 5.66 names a failed LE link `le-connection-…` after its errno: the strap or the
    /// controller dropped it, timed out or was busy. Only a wrong argument, an unsupported link
    /// or a powered-off adapter (`…-not-powered`) want the operator, and are not listed.
    private static let transientFailures = [
        "le-connection-abort-by-local", "le-connection-abort-by-remote", "le-connection-timeout", "le-connection-busy",
        "le-connection-refused", "le-connection-create-socket", "le-connection-link-layer-protocol-error",
        "le-connection-concurrent-connection-limit", "le-connection-unknown", "software caused connection abort",
        "connection reset by peer", "operation already in progress", "input/output error", "connection timed out",
        "br-connection-canceled", "device or resource busy",
    ]

    /// Whether bluetoothd itself is not on the bus.
    package var isDaemonUnavailable: Bool {
        name == DBusError.Name.serviceUnknown || name == DBusError.Name.nameHasNoOwner
    }

    /// `Connect device F0:… failed: le-connection-abort-by-local (org.bluez.Error.Failed)`: the
    /// operation, bluetoothd's message and the error name, as logs and the CLI print it.
    package var description: String {
        let detail = message.isEmpty ? name : "\(message) (\(name))"
        return "\(operation) failed: \(detail)"
    }
}
