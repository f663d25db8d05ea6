import BlueZ
import BlueZSimulator
import GATTHeartRate
import Testing

@Suite("Adapter and discovery against the simulated bluetoothd")
struct DiscoveryTests {
    @Test("mirrors the adapter from GetManagedObjects and finds heart-rate straps with the 0x180D LE filter")
    func discoversStraps() async throws {
        let fixture = try await SimulatorFixture.start()
        let adapter = try await fixture.adapter
        #expect(await adapter.isPowered)
        try await adapter.setDiscoveryFilter(serviceUUIDs: [BluetoothUUID.heartRateService.uuidString])
        try await adapter.startDiscovery()
        #expect(await fixture.client.wait(timeout: .seconds(30)) { $0.devices().count == 2 })
        #expect(await adapter.isDiscovering)
        let info = try #require(await fixture.client.devices().first?.info)
        #expect(info.serviceUUIDs.contains(BluetoothUUID.heartRateService.uuidString))
        #expect(info.rssi != nil && info.name?.hasPrefix("Polar H10") == true)
        try await adapter.stopDiscovery()
        #expect(await fixture.client.wait(timeout: .seconds(30)) { $0.property("Discovering", of: BlueZName.adapter, at: adapter.path)?.bool == false })
    }

    @Test("honours the discovery filter: a service no strap offers finds nothing")
    func filterExcludes() async throws {
        let fixture = try await SimulatorFixture.start()
        let adapter = try await fixture.adapter
        try await adapter.setDiscoveryFilter(serviceUUIDs: ["0000feaa-0000-1000-8000-00805f9b34fb"])
        try await adapter.startDiscovery()
        let found = await fixture.client.wait(timeout: .seconds(2)) { !$0.devices().isEmpty }
        #expect(!found)
    }

    @Test("answers a second StartDiscovery with InProgress (transient) and a powered-off adapter with NotReady")
    func discoveryErrors() async throws {
        let fixture = try await SimulatorFixture.start()
        let adapter = try await fixture.adapter
        try await adapter.startDiscovery()
        let again = await #expect(throws: BlueZError.self) { try await adapter.startDiscovery() }
        #expect(again?.code == "InProgress" && again?.isTransient == true)
        let stopTwice = await #expect(throws: BlueZError.self) {
            try await adapter.stopDiscovery()
            try await adapter.stopDiscovery()
        }
        #expect(stopTwice?.message == "No discovery started")
        try await adapter.setPowered(false)
        #expect(await fixture.client.wait(timeout: .seconds(30)) { $0.property("Powered", of: BlueZName.adapter, at: adapter.path)?.bool == false })
        let off = await #expect(throws: BlueZError.self) { try await adapter.startDiscovery() }
        #expect(off?.code == "NotReady" && off?.isTransient == true)
    }

    @Test("removes a device object with RemoveDevice, and reports DoesNotExist for an unknown one")
    func removeDevice() async throws {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        let device = try await fixture.discover(address)
        let adapter = try await fixture.adapter
        try await adapter.removeDevice(device)
        #expect(await fixture.client.wait(timeout: .seconds(30)) { $0.device(address: address.description) == nil })
        let error = await #expect(throws: BlueZError.self) { try await adapter.removeDevice(device) }
        #expect(error?.code == "DoesNotExist" && error?.isTransient == false)
    }
}
