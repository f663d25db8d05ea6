import GATTHeartRate
import Testing

@Suite("Assigned UUIDs")
struct BluetoothUUIDTests {
    @Test(
        "gives the 16-bit and the full 128-bit form of every assigned UUID",
        arguments: [
            (BluetoothUUID.heartRateService, 0x180D, "0000180d-0000-1000-8000-00805f9b34fb"),
            (.heartRateMeasurement, 0x2A37, "00002a37-0000-1000-8000-00805f9b34fb"),
            (.bodySensorLocation, 0x2A38, "00002a38-0000-1000-8000-00805f9b34fb"),
            (.heartRateControlPoint, 0x2A39, "00002a39-0000-1000-8000-00805f9b34fb"),
            (.batteryService, 0x180F, "0000180f-0000-1000-8000-00805f9b34fb"),
            (.batteryLevel, 0x2A19, "00002a19-0000-1000-8000-00805f9b34fb"),
            (.deviceInformationService, 0x180A, "0000180a-0000-1000-8000-00805f9b34fb"),
            (.manufacturerName, 0x2A29, "00002a29-0000-1000-8000-00805f9b34fb"),
            (.modelNumber, 0x2A24, "00002a24-0000-1000-8000-00805f9b34fb"),
            (.serialNumber, 0x2A25, "00002a25-0000-1000-8000-00805f9b34fb"),
            (.hardwareRevision, 0x2A27, "00002a27-0000-1000-8000-00805f9b34fb"),
            (.firmwareRevision, 0x2A26, "00002a26-0000-1000-8000-00805f9b34fb"),
            (.softwareRevision, 0x2A28, "00002a28-0000-1000-8000-00805f9b34fb"),
        ] as [(BluetoothUUID, UInt16, String)])
    func bothForms(uuid: BluetoothUUID, assigned: UInt16, full: String) {
        #expect(uuid.assignedNumber == assigned)
        #expect(uuid.uuidString == full)
        #expect(BluetoothUUID(full) == uuid)
        #expect(BluetoothUUID(full.uppercased()) == uuid)
    }

    @Test("parses the spellings technicians and BlueZ use")
    func parsesSpellings() {
        #expect(BluetoothUUID("180d") == .heartRateService)
        #expect(BluetoothUUID("0x180D") == .heartRateService)
        #expect(BluetoothUUID.heartRateService.description == "0x180D")
    }

    @Test("keeps vendor UUIDs off the base UUID as full 128-bit values")
    func vendorUUID() throws {
        let text = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
        let uuid = try #require(BluetoothUUID(text))
        #expect(uuid.assignedNumber == nil)
        #expect(uuid.description == text)
    }

    @Test(
        "refuses text that is not a UUID",
        arguments: ["", "18d", "0x", "zzzz", "0000180d-0000-1000-8000-00805f9b34f", "0000180d00001000800000805f9b34fb", "0000180g-0000-1000-8000-00805f9b34fb"])
    func refusesGarbage(text: String) {
        #expect(BluetoothUUID(text) == nil)
    }
}
