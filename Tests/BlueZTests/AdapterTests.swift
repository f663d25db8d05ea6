import BlueZ
import BlueZSimulator
import DBus
import GATTHeartRate
import Testing

/// The simulated bluetoothd with several adapters, as the gateway meets them on a box with USB
/// dongles: a device object per adapter, each with its own RSSI, controllers that hold only so
/// many links, adapters plugged in and out.
@Suite("Several adapters on the simulated bluetoothd")
struct AdapterTests {
    static func start(
        adapters: [SimulatedAdapter], straps: Int = 2, configure: (inout [SimulatedStrap]) -> Void = { _ in }
    ) async throws -> (bus: PrivateBus, simulator: BluetoothdSimulator, client: BlueZClient) {
        let bus = try PrivateBus()
        var fleet = SimulatedStrap.fleet(count: straps, notificationInterval: .milliseconds(50))
        configure(&fleet)
        let simulator = BluetoothdSimulator(busAddress: bus.address, straps: fleet, adapters: adapters)
        try await simulator.start()
        let client = try await BlueZClient.connect(.address(bus.address))
        return (bus, simulator, client)
    }

    /// Discovery on `adapter` until the strap has a device object there (or `timeout`: a strap
    /// that must not be found is looked for through four discovery rounds), then stopped.
    static func discover(
        _ address: BluetoothAddress, on name: String, client: BlueZClient, timeout: Duration = .seconds(30)
    ) async throws -> Device? {
        guard await client.wait(timeout: .seconds(30), until: { $0.adapter(named: name) != nil }),
            let adapter = await client.adapter(named: name)
        else { return nil }
        try await adapter.startDiscovery()
        let text = address.description
        _ = await client.wait(timeout: timeout) { $0.device(address: text, on: adapter) != nil }
        try await adapter.stopDiscovery()
        return await client.device(address: text, on: adapter)
    }

    @Test("each adapter discovers the strap into a device object of its own, at the RSSI it hears; one out of reach finds nothing")
    func objectPerAdapter() async throws {
        let (bus, simulator, client) = try await Self.start(adapters: [.hci0, SimulatedAdapter(name: "hci1"), SimulatedAdapter(name: "hci2")]) {
            $0[0].rssi = -50
            $0[0].rssiByAdapter = ["hci1": -80, "hci2": nil]
        }
        let address = await simulator.strapAddresses[0]
        let onHci0 = try #require(try await Self.discover(address, on: "hci0", client: client))
        let onHci1 = try #require(try await Self.discover(address, on: "hci1", client: client))
        #expect(onHci0.path.description == "/org/bluez/hci0/dev_" + address.description.replacingOccurrences(of: ":", with: "_"))
        #expect(onHci1.path.description.hasPrefix("/org/bluez/hci1/dev_"))
        let rssi0 = try #require(await client.property("RSSI", of: BlueZName.device, at: onHci0.path)?.integer)
        let rssi1 = try #require(await client.property("RSSI", of: BlueZName.device, at: onHci1.path)?.integer)
        #expect(abs(rssi0 + 50) <= 3 && abs(rssi1 + 80) <= 3)
        #expect(await client.property("Adapter", of: BlueZName.device, at: onHci1.path)?.objectPath?.description == "/org/bluez/hci1")
        #expect(try await Self.discover(address, on: "hci2", client: client, timeout: .seconds(2)) == nil, "hci2 does not hear it")
        await client.close()
        await simulator.stop()
        bus.stop()
    }

    @Test("a controller holding its two links aborts a third connect with le-connection-abort-by-local; a strap linked elsewhere is not seen")
    func connectionLimit() async throws {
        let (bus, simulator, client) = try await Self.start(
            adapters: [SimulatedAdapter(name: "hci0", maxConnections: 2), SimulatedAdapter(name: "hci1")], straps: 3)
        let addresses = await simulator.strapAddresses
        var devices: [Device] = []
        for address in addresses { devices.append(try #require(try await Self.discover(address, on: "hci0", client: client))) }
        try await devices[0].connect()
        try await devices[1].connect()
        let refused = await #expect(throws: BlueZError.self) { try await devices[2].connect() }
        #expect(refused?.message == "le-connection-abort-by-local" && refused?.name == "org.bluez.Error.Failed")
        #expect(await simulator.adapter(of: addresses[0]) == "hci0")
        #expect(await simulator.adapter(of: addresses[2]) == nil)
        #expect(try await Self.discover(addresses[0], on: "hci1", client: client, timeout: .seconds(2)) == nil, "a linked strap no longer advertises")
        let third = try #require(try await Self.discover(addresses[2], on: "hci1", client: client))
        try await third.connect()
        #expect(await simulator.adapter(of: addresses[2]) == "hci1")
        await client.close()
        await simulator.stop()
        bus.stop()
    }

    @Test("an adapter unplugged drops its links and takes its objects away; plugged in again it is back, powered")
    func unplugAndPlug() async throws {
        let (bus, simulator, client) = try await Self.start(adapters: [.hci0, SimulatedAdapter(name: "hci1")])
        let address = await simulator.strapAddresses[0]
        let device = try #require(try await Self.discover(address, on: "hci1", client: client))
        try await device.connect()
        #expect(await device.waitForServicesResolved(timeout: .seconds(30)))
        await simulator.removeAdapter("hci1")
        let gone = await client.wait(timeout: .seconds(30)) { client in
            client.adapter(named: "hci1") == nil && client.devices().allSatisfy { !$0.path.description.hasPrefix("/org/bluez/hci1/") }
        }
        #expect(gone)
        #expect(await simulator.isConnected(address) == false)
        #expect(await simulator.adapterNames == ["hci0"])
        await simulator.addAdapter(SimulatedAdapter(name: "hci1"))
        #expect(await client.wait(timeout: .seconds(30)) { $0.adapter(named: "hci1") != nil })
        #expect(await client.adapter(named: "hci1")?.isPowered == true)
        await client.close()
        await simulator.stop()
        bus.stop()
    }
}
