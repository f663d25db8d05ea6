/// The SIG-assigned services and characteristics the gateway reads from a heart-rate strap.
///
/// Characteristics are always looked up by these UUIDs, never by object path: paths differ per
/// device and per firmware.
extension BluetoothUUID {
    /// Heart Rate Service, which every supported strap exposes.
    public static let heartRateService = BluetoothUUID(0x180D)
    /// Heart Rate Measurement: the notified frames the gateway decodes.
    public static let heartRateMeasurement = BluetoothUUID(0x2A37)
    /// Body Sensor Location: where the strap sits, read once per connection.
    public static let bodySensorLocation = BluetoothUUID(0x2A38)
    /// Heart Rate Control Point: resets the energy-expended counter.
    public static let heartRateControlPoint = BluetoothUUID(0x2A39)

    /// Battery Service.
    public static let batteryService = BluetoothUUID(0x180F)
    /// Battery Level, a percentage.
    public static let batteryLevel = BluetoothUUID(0x2A19)

    /// Device Information Service: manufacturer and model for the uploaded data's provenance.
    public static let deviceInformationService = BluetoothUUID(0x180A)
    /// Manufacturer Name String (UTF-8).
    public static let manufacturerName = BluetoothUUID(0x2A29)
    /// Model Number String (UTF-8).
    public static let modelNumber = BluetoothUUID(0x2A24)
    /// Serial Number String (UTF-8).
    public static let serialNumber = BluetoothUUID(0x2A25)
    /// Hardware Revision String (UTF-8).
    public static let hardwareRevision = BluetoothUUID(0x2A27)
    /// Firmware Revision String (UTF-8).
    public static let firmwareRevision = BluetoothUUID(0x2A26)
    /// Software Revision String (UTF-8).
    public static let softwareRevision = BluetoothUUID(0x2A28)
}
