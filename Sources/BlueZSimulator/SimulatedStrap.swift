import GATTHeartRate

/// A heart-rate strap the simulator advertises, with the traits that change how a gateway
/// must treat it (pairing support, `AcquireNotify`, battery, location …).
package struct SimulatedStrap: Sendable {
    /// How the strap answers `Pair()`.
    package enum Pairing: Sendable {
        /// Just Works: bluetoothd confirms it itself.
        case justWorks
        /// The strap refuses (`AuthenticationFailed`), as many straps that need no bond do, and as
        /// one that insists on a passkey answers a gateway that offers only Just Works.
        case rejected
    }

    /// The strap's address: its device path (`dev_F0_1D_…`) and the key the simulator's
    /// controls take.
    package var address: BluetoothAddress
    /// The advertised `Name` (also the `Alias`), which discovery filters can match by prefix.
    package var name: String
    /// The Manufacturer Name String (0x2A29) its Device Information service returns.
    package var manufacturer: String
    /// The Model Number String (0x2A24) its Device Information service returns.
    package var model: String
    /// Bluetooth SIG company identifier, for `ManufacturerData`.
    package var companyID: UInt16
    /// Advertised signal strength in dBm; each discovery round reports it with ±3 dBm jitter, and
    /// an `RSSI` discovery filter compares against it.
    package var rssi: Int16
    /// The signal strength particular adapters see instead of `rssi` (another room, a better
    /// antenna); an adapter mapped to nil does not hear the strap at all.
    package var rssiByAdapter: [String: Int16?] = [:]
    /// What its Body Sensor Location characteristic (0x2A38) reads.
    package var bodyLocation: BodySensorLocation
    /// Battery level in percent (0–100), as `Battery1.Percentage` and Battery Level (0x2A19).
    package var batteryPercent: UInt8
    /// Whether `Pair()` succeeds (Just Works) or fails with `AuthenticationFailed`.
    package var pairing: Pairing
    /// Whether bluetoothd offers `AcquireNotify` for 0x2A37 (it does for most straps).
    package var offersAcquireNotify: Bool
    /// Time between notifications (straps send about one per second).
    package var notificationInterval: Duration
    /// The heart-rate signal it sends when no scripted frames are queued.
    package var signal: HeartRateSignal

    /// What `adapter` hears of it, in dBm; nil when it is out of that adapter's reach.
    func rssi(on adapter: String) -> Int16? {
        if let heard = rssiByAdapter[adapter] { return heard }
        return rssi
    }

    /// A strap from its traits; the defaults describe a Polar H10 on the chest that pairs,
    /// offers `AcquireNotify` and notifies once a second.
    package init(
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
    package static func fleet(count: Int, notificationInterval: Duration = .seconds(1)) -> [SimulatedStrap] {
        (0 ..< count).map { index in
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
