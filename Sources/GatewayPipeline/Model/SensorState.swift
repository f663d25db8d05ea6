import GATTHeartRate

/// Where a sensor supervisor is in its cycle.
package enum SensorState: Sendable, Equatable, CustomStringConvertible {
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
    package var name: String {
        switch self {
        case .waiting: "waiting"
        case .discovering: "discovering"
        case .connecting: "connecting"
        case .resolvingServices: "resolving-services"
        case .subscribed: "subscribed"
        case .backingOff: "backing-off"
        }
    }

    /// The stable name, with the reason for `waiting` and `backing off`, as the status detail.
    package var description: String {
        switch self {
        case .waiting(let reason): "waiting: \(reason)"
        case .backingOff(let reason): "backing off: \(reason)"
        default: name
        }
    }
}

/// What the supervisor reports as it works: for logs, metrics and `status`.
package enum SensorEvent: Sendable {
    case stateChanged(BluetoothAddress, SensorState)
    /// Device information read once per connection.
    case deviceInfo(BluetoothAddress, DeviceDetails)
    /// A frame that did not decode, with its bytes (callers rate-limit their logging).
    case malformedFrame(BluetoothAddress, bytes: [UInt8], error: FrameDecodingError, count: Int)
    /// A failure the supervisor will retry, with the delay it chose and how many cycles in a row
    /// have failed, this one included.
    case retrying(BluetoothAddress, reason: String, transient: Bool, after: Duration, failures: Int)
    /// The strap went silent past the stall timeout; the link is being rebuilt.
    case stalled(BluetoothAddress)
    /// The strap was placed on an adapter that last saw it advertise at `rssi` dBm (nil: that
    /// adapter has no reading).
    case sighted(BluetoothAddress, rssi: Int?)
}

/// What a strap says about itself, read once per connection.
package struct DeviceDetails: Sendable, Equatable {
    /// The strap's alias or advertised name.
    package var name: String?
    /// Where the strap sits (0x2A38).
    package var bodySensorLocation: BodySensorLocation?
    /// The battery level (Battery1 or 0x2A19).
    package var batteryPercent: Int?
    /// Manufacturer Name String (0x2A29).
    package var manufacturer: String?
    /// Model Number String (0x2A24).
    package var model: String?

    /// Details from their parts; what a strap does not offer stays nil.
    package init(
        name: String? = nil, bodySensorLocation: BodySensorLocation? = nil, batteryPercent: Int? = nil,
        manufacturer: String? = nil, model: String? = nil
    ) {
        self.name = name
        self.bodySensorLocation = bodySensorLocation
        self.batteryPercent = batteryPercent
        self.manufacturer = manufacturer
        self.model = model
    }
}
