import Foundation
import GATTHeartRate
@testable import GatewayPipeline
import GatewayTestSupport
import Testing

@Suite("Sensor binding store")
struct SensorBindingStoreTests {
    @Test("sensors.json (strap to patient) is written 0600 in a 0700 directory it creates, and read back")
    func privateFile() throws {
        let scratch = try TemporaryDirectory("bindings")
        defer { scratch.remove() }
        let store = SensorBindingStore(directory: scratch.file("state"))
        let binding = SensorBinding(
            address: BluetoothAddress("F0:1D:2E:3C:00:01")!, alias: "bed 3", patientID: "40001", addedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.bind(binding)
        #expect(try store.load() == [binding])
        #expect(try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? NSNumber == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: scratch.file("state"))[.posixPermissions] as? NSNumber == 0o700)
    }
}
