import GATTHeartRate

/// Where a sensor supervisor is in its cycle.
public enum SensorState: Sendable, Equatable, CustomStringConvertible {
    /// Waiting for something outside the strap: bluetoothd, the adapter, its power.
    case waiting(String)
    /// Looking for a strap bluetoothd does not know yet.
    case discovering
    case connecting
    case resolvingServices
    /// Notifications are flowing.
    case subscribed
    /// Pausing after a failure before trying again.
    case backingOff(String)

    /// A stable name for status output (`subscribed`, `backing-off` …).
    var name: String {
        switch self {
        case .waiting: "waiting"
        case .discovering: "discovering"
        case .connecting: "connecting"
        case .resolvingServices: "resolving-services"
        case .subscribed: "subscribed"
        case .backingOff: "backing-off"
        }
    }

    public var description: String {
        switch self {
        case .waiting(let reason): "waiting: \(reason)"
        case .backingOff(let reason): "backing off: \(reason)"
        default: name
        }
    }
}

/// What the supervisor reports as it works: for logs, metrics and `status`.
public enum SensorEvent: Sendable {
    case stateChanged(BluetoothAddress, SensorState)
    /// Device information read once per connection.
    case deviceInfo(BluetoothAddress, DeviceDetails)
    /// A frame that did not decode, with its bytes (callers rate-limit their logging).
    case malformedFrame(BluetoothAddress, bytes: [UInt8], error: FrameDecodingError, count: Int)
    /// A failure the supervisor will retry, with the delay it chose.
    case retrying(BluetoothAddress, reason: String, transient: Bool, after: Duration)
    /// The strap went silent past the stall timeout; the link is being rebuilt.
    case stalled(BluetoothAddress)
}

/// What a strap says about itself, read once per connection.
public struct DeviceDetails: Sendable, Equatable {
    public var name: String?
    public var bodySensorLocation: BodySensorLocation?
    public var batteryPercent: Int?
    public var manufacturer: String?
    public var model: String?
}
