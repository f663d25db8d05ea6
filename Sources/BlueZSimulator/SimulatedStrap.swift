import GATTHeartRate

/// A heart-rate strap the simulator advertises, with the traits that change how a gateway
/// must treat it (pairing support, `AcquireNotify`, battery, location …).
public struct SimulatedStrap: Sendable {
    /// How the strap answers `Pair()`.
    public enum Pairing: Sendable {
        /// Just Works: bluetoothd confirms it itself.
        case justWorks
        /// The strap refuses (`AuthenticationFailed`), as many straps that need no bond do.
        case rejected
    }

    public var address: BluetoothAddress
    public var name: String
    public var manufacturer: String
    public var model: String
    /// Bluetooth SIG company identifier, for `ManufacturerData`.
    public var companyID: UInt16
    public var rssi: Int16
    public var bodyLocation: BodySensorLocation
    public var batteryPercent: UInt8
    public var pairing: Pairing
    /// Whether bluetoothd offers `AcquireNotify` for 0x2A37 (it does for most straps).
    public var offersAcquireNotify: Bool
    /// Time between notifications (straps send about one per second).
    public var notificationInterval: Duration
    /// The heart-rate signal it sends when no scripted frames are queued.
    public var signal: HeartRateSignal

    public init(
        address: BluetoothAddress, name: String, manufacturer: String = "Polar Electro Oy", model: String = "H10",
        companyID: UInt16 = 0x006B, rssi: Int16 = -58, bodyLocation: BodySensorLocation = .chest,
        batteryPercent: UInt8 = 87, pairing: Pairing = .justWorks, offersAcquireNotify: Bool = true,
        notificationInterval: Duration = .seconds(1), signal: HeartRateSignal = HeartRateSignal()
    ) {
        self.address = address
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.companyID = companyID
        self.rssi = rssi
        self.bodyLocation = bodyLocation
        self.batteryPercent = batteryPercent
        self.pairing = pairing
        self.offersAcquireNotify = offersAcquireNotify
        self.notificationInterval = notificationInterval
        self.signal = signal
    }

    /// `count` distinct straps with varied names, signals and radio conditions, for demos and
    /// tests: addresses `F0:1D:2E:3C:00:01`, `F0:1D:2E:3C:00:02`, …
    public static func fleet(count: Int, notificationInterval: Duration = .seconds(1)) -> [SimulatedStrap] {
        (0..<count).map { index in
            let number = UInt8(truncatingIfNeeded: index + 1)
            let address = BluetoothAddress(bytes: [0xF0, 0x1D, 0x2E, 0x3C, UInt8(truncatingIfNeeded: (index + 1) >> 8), number])!
            let polar = index % 3 != 2
            return SimulatedStrap(
                address: address,
                name: polar ? "Polar H10 \(address.description.suffix(5).replacingColons())" : "TICKR \(address.description.suffix(5).replacingColons())",
                manufacturer: polar ? "Polar Electro Oy" : "Wahoo Fitness",
                model: polar ? "H10" : "TICKR",
                companyID: polar ? 0x006B : 0x0185,
                rssi: Int16(-50 - (index * 7) % 35),
                batteryPercent: UInt8(95 - (index * 11) % 60),
                pairing: polar ? .justWorks : .rejected,
                notificationInterval: notificationInterval,
                signal: HeartRateSignal(seed: UInt64(index + 1), restingBPM: 58 + Double((index * 13) % 30)))
        }
    }
}

extension Substring {
    fileprivate func replacingColons() -> String { split(separator: ":").joined() }
}
