import BlueZ
import BlueZSimulator
import GATTHeartRate

/// A private bus with a simulated bluetoothd and a `BlueZClient` mirroring it.
struct SimulatorFixture: Sendable {
    let bus: PrivateBus
    let simulator: BluetoothdSimulator
    let client: BlueZClient

    static func start(straps: [SimulatedStrap] = SimulatedStrap.fleet(count: 2, notificationInterval: .milliseconds(50))) async throws -> SimulatorFixture {
        let bus = try PrivateBus()
        let simulator = BluetoothdSimulator(busAddress: bus.address, straps: straps)
        try await simulator.start()
        let client = try await BlueZClient.connect(.address(bus.address))
        return SimulatorFixture(bus: bus, simulator: simulator, client: client)
    }

    var adapter: Adapter {
        get async throws {
            guard await client.wait(timeout: .seconds(30), until: { $0.adapter(named: "hci0") != nil }),
                let adapter = await client.adapter(named: "hci0")
            else { throw FixtureError(description: "hci0 did not appear") }
            return adapter
        }
    }

    /// Discovers straps until `address` has a device object, and stops discovery before
    /// returning (a device removed while discovery runs is found again).
    func discover(_ address: BluetoothAddress) async throws -> Device {
        let adapter = try await adapter
        try await adapter.setDiscoveryFilter(serviceUUIDs: [BluetoothUUID.heartRateService.uuidString])
        try await adapter.startDiscovery()
        let text = address.description
        let found = await client.wait(timeout: .seconds(30)) { $0.device(address: text) != nil }
        try await adapter.stopDiscovery()
        guard found, let device = await client.device(address: text) else {
            throw FixtureError(description: "\(text) was not discovered")
        }
        return device
    }

    /// Discovers and connects `address`, waiting for its services.
    func connect(_ address: BluetoothAddress) async throws -> Device {
        let device = try await discover(address)
        try await device.connect()
        guard await device.waitForServicesResolved(timeout: .seconds(30)) else {
            throw FixtureError(description: "services of \(address) were not resolved")
        }
        return device
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}
