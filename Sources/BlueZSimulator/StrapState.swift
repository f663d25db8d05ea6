import BlueZ
import DBus
import GATTHeartRate

/// What the simulated bluetoothd knows about one strap at run time.
struct StrapState {
    var strap: SimulatedStrap
    /// Whether the strap is powered and within radio range.
    var inRange = true
    /// The adapters under which a `Device1` object exists for it (each adapter has its own).
    var objects: Set<String> = []
    /// The adapter its link goes through, while connected (a strap holds one link).
    var via: String?
    var connecting = false
    /// The adapter its bond, trust and cache entry belong to (bluetoothd stores them per adapter).
    var home: String
    var paired = false
    var trusted = false
    /// Whether bluetoothd has the device in its cache from an earlier session.
    var remembered = false
    /// An error the next `Connect()` fails with (fault injection).
    var failNextConnect: DBusError?
    /// How long the GATT objects trail `ServicesResolved` (nil: they come first).
    var gattLag: Duration?
    /// Whether notifications are held back (a strap that connects but never notifies).
    var stalled = false
    /// Frames to send before returning to the generated signal (scripted sequences, malformed
    /// frames).
    var scripted: [[UInt8]] = []
    /// Unique names of the connections that called `StartNotify` on 0x2A37.
    var notifySessions: Set<String> = []
    /// The simulator's end of an `AcquireNotify` socket, and the connection that acquired it.
    var acquired: (socket: Int32, owner: String)?
    /// Sends notifications while connected.
    var emitter: Task<Void, Never>?
    /// Notifications delivered (through either transport) since the simulator started.
    var notificationsSent = 0
    /// Notifications dropped because the `AcquireNotify` client did not read them in time.
    var notificationsDropped = 0
    /// GATT object paths while connected.
    var gatt: GattLayout?

    /// Whether it is connected (through `via`).
    var connected: Bool { via != nil }

    /// Whether bluetoothd keeps the device across restarts (bonded, trusted or cached), on `home`.
    var isStored: Bool { paired || trusted || remembered }
}

/// Where a strap's GATT objects live. Handles depend on the daemon generation, so paths change
/// when bluetoothd restarts (as they differ between firmwares): clients must look up by UUID.
struct GattLayout {
    let heartRateService: DBusObjectPath
    let measurement: DBusObjectPath
    let bodySensorLocation: DBusObjectPath
    let controlPoint: DBusObjectPath
    let batteryService: DBusObjectPath
    let batteryLevel: DBusObjectPath
    let deviceInformationService: DBusObjectPath
    let manufacturerName: DBusObjectPath
    let modelNumber: DBusObjectPath

    init(device: DBusObjectPath, generation: Int) {
        let base = 0x000C + 0x20 * generation
        func service(_ offset: Int) -> DBusObjectPath { device.appending("service" + Self.hex(base + offset)) }
        func characteristic(_ service: DBusObjectPath, _ offset: Int) -> DBusObjectPath {
            service.appending("char" + Self.hex(base + offset))
        }
        heartRateService = service(0)
        measurement = characteristic(heartRateService, 1)
        bodySensorLocation = characteristic(heartRateService, 4)
        controlPoint = characteristic(heartRateService, 6)
        batteryService = service(8)
        batteryLevel = characteristic(batteryService, 9)
        deviceInformationService = service(12)
        manufacturerName = characteristic(deviceInformationService, 13)
        modelNumber = characteristic(deviceInformationService, 15)
    }

    var all: [DBusObjectPath] {
        [
            heartRateService, measurement, bodySensorLocation, controlPoint, batteryService, batteryLevel,
            deviceInformationService, manufacturerName, modelNumber,
        ]
    }

    private static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
