import BlueZ
import GATTHeartRate

/// Reads what a connected strap says about itself: body location, battery, manufacturer and
/// model. Once per connection (supervisor) or once at pairing; a strap that lacks one of them
/// simply does not report it.
package enum StrapDetails {
    /// What the connected `device` reports about itself; characteristics it lacks stay nil.
    package static func read(_ device: Device) async -> DeviceDetails {
        let info = await device.info
        var details = DeviceDetails(name: info?.alias ?? info?.name, batteryPercent: info?.batteryPercentage)
        if let bytes = await value(of: .bodySensorLocation, on: device) {
            details.bodySensorLocation = try? BodySensorLocation.decode(bytes).value
        }
        if details.batteryPercent == nil, let bytes = await value(of: .batteryLevel, on: device),
            let level = try? BatteryLevel.decode(bytes).value
        {
            details.batteryPercent = Int(level.percent)
        }
        details.manufacturer = await value(of: .manufacturerName, on: device).map { String(decoding: $0, as: UTF8.self) }
        details.model = await value(of: .modelNumber, on: device).map { String(decoding: $0, as: UTF8.self) }
        return details
    }

    private static func value(of uuid: BluetoothUUID, on device: Device) async -> [UInt8]? {
        guard let characteristic = await device.characteristic(uuid.uuidString) else { return nil }
        return try? await characteristic.read()
    }
}
