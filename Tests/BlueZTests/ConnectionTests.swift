import BlueZ
import BlueZSimulator
import DBus
import GATTHeartRate
import Testing

@Suite("Connecting, pairing and GATT against the simulated bluetoothd")
struct ConnectionTests {
    @Test("follows the real connect sequence: Connected, then GATT objects, then ServicesResolved")
    func connectSequence() async throws {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        let device = try await fixture.discover(address)
        let events = await fixture.client.events()
        try await device.connect()
        var order: [String] = []
        for await event in events {
            switch event {
            case .propertiesChanged(device.path, interface: BlueZName.device, let changed):
                if changed["Connected"]?.bool == true { order.append("Connected") }
                if changed["ServicesResolved"]?.bool == true { order.append("ServicesResolved") }
            case .interfacesAdded(let path, let interfaces) where path.isDescendant(of: device.path) && interfaces[BlueZName.gattCharacteristic] != nil:
                if order.last != "GATT" { order.append("GATT") }
            default:
                break
            }
            if order.last == "ServicesResolved" { break }
        }
        #expect(order == ["Connected", "GATT", "ServicesResolved"])
        let measurement = try #require(await device.characteristic(BluetoothUUID.heartRateMeasurement.uuidString))
        #expect(await measurement.flags == ["notify"])
        #expect(await device.info?.batteryPercentage != nil)
    }

    @Test("reads body location and battery, writes the control point, and maps the strap's ATT error")
    func readAndWrite() async throws {
        let fixture = try await SimulatorFixture.start()
        let device = try await fixture.connect(await fixture.simulator.strapAddresses[0])
        let location = try #require(await device.characteristic(BluetoothUUID.bodySensorLocation.uuidString))
        let events = await fixture.client.events()
        let valueChanges = try await fixture.client.connection.signals(
            matching: DBusMatchRule(
                sender: BlueZName.service, interface: BlueZName.properties, member: "PropertiesChanged", path: location.path))
        #expect(try BodySensorLocation.decode(try await location.read()).value == .chest)
        for await signal in valueChanges {
            // bluetoothd reports a read as a Value change too: why 0x2A37 is never read.
            #expect(signal.body[1].stringDictionary?["Value"]?.bytes == [BodySensorLocation.chest.rawValue])
            break
        }
        let battery = try #require(await device.characteristic(BluetoothUUID.batteryLevel.uuidString))
        #expect(try BatteryLevel.decode(try await battery.read()).value.percent == 95)
        let model = try #require(await device.characteristic(BluetoothUUID.modelNumber.uuidString))
        #expect(String(decoding: try await model.read(), as: UTF8.self) == "H10")
        let controlPoint = try #require(await device.characteristic(BluetoothUUID.heartRateControlPoint.uuidString))
        try await controlPoint.write(HeartRateControlPointCommand.resetEnergyExpended.encoded)
        let refused = await #expect(throws: BlueZError.self) { try await controlPoint.write([0x07]) }
        #expect(refused?.message == "Operation failed with ATT error: 0x80")

        // Value changes reach whoever subscribed to them, not the client's event streams (which
        // every strap's tasks follow): up to the link loss below, no event carries one.
        await fixture.simulator.dropLink(await fixture.simulator.strapAddresses[0])
        var valueEvents = 0
        for await event in events {
            if case .propertiesChanged(_, interface: BlueZName.gattCharacteristic, let changed) = event, changed["Value"] != nil { valueEvents += 1 }
            if case .propertiesChanged(device.path, interface: BlueZName.device, let changed) = event, changed["Connected"]?.bool == false { break }
        }
        #expect(valueEvents == 0)
    }

    @Test("pairs a Just Works strap and trusts it; reports a strap that refuses pairing as AuthenticationFailed")
    func pairing() async throws {
        let fixture = try await SimulatorFixture.start(straps: SimulatedStrap.fleet(count: 3))
        let addresses = await fixture.simulator.strapAddresses
        let polar = try await fixture.discover(addresses[0])
        try await polar.pair()
        try await polar.setTrusted(true)
        #expect(
            await fixture.client.wait(timeout: .seconds(30)) { client in
                client.property("Paired", of: BlueZName.device, at: polar.path)?.bool == true
                    && client.property("Trusted", of: BlueZName.device, at: polar.path)?.bool == true
            })
        let tickr = try await fixture.discover(addresses[2])
        let refused = await #expect(throws: BlueZError.self) { try await tickr.pair() }
        #expect(refused?.code == "AuthenticationFailed" && refused?.isTransient == false)
    }

    @Test("surfaces an injected connect failure as a transient BlueZError, then connects on retry")
    func transientConnectFailure() async throws {
        let fixture = try await SimulatorFixture.start()
        let address = await fixture.simulator.strapAddresses[0]
        let device = try await fixture.discover(address)
        await fixture.simulator.failNextConnect(address, with: DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
        let error = await #expect(throws: BlueZError.self) { try await device.connect() }
        #expect(error?.isTransient == true)
        #expect(error?.description == "Connect device F0:1D:2E:3C:00:01 failed: le-connection-abort-by-local (org.bluez.Error.Failed)")
        try await device.connect()
        #expect(await device.waitForServicesResolved(timeout: .seconds(30)))
    }

    @Test(
        "bluez's link failures are transient whatever their case, except a wrong argument, an unsupported link and a powered-off adapter",
        arguments: [
            ("Connection reset by peer", true), ("Software caused connection abort", true), ("le-connection-abort-by-remote", true),
            ("le-connection-timeout", true), ("le-connection-busy", true),
            ("le-connection-create-socket", true), ("le-connection-unknown", true), ("le-connection-invalid-arguments", false),
            ("le-connection-not-supported", false), ("le-connection-adapter-not-powered", false),
        ])
    func leConnectionFailures(message: String, transient: Bool) {
        let error = BlueZError(DBusError(name: "org.bluez.Error.Failed", message: message), operation: "Connect")
        #expect(error.isTransient == transient)
    }

    @Test("disconnects on request: Connected and ServicesResolved fall, GATT objects go, a second Disconnect is NotConnected")
    func disconnect() async throws {
        let fixture = try await SimulatorFixture.start()
        let device = try await fixture.connect(await fixture.simulator.strapAddresses[0])
        try await device.disconnect()
        #expect(
            await fixture.client.wait(timeout: .seconds(30)) { client in
                client.property("Connected", of: BlueZName.device, at: device.path)?.bool == false
                    && client.paths(with: BlueZName.gattCharacteristic, under: device.path).isEmpty
            })
        #expect(await device.info?.areServicesResolved == false)
        let again = await #expect(throws: BlueZError.self) { try await device.disconnect() }
        #expect(again?.code == "NotConnected")
    }

    @Test("refuses to connect while the adapter is off (NotReady) and to a strap out of range (aborted)")
    func connectRefusals() async throws {
        let fixture = try await SimulatorFixture.start()
        let addresses = await fixture.simulator.strapAddresses
        let first = try await fixture.discover(addresses[0])
        let second = try await fixture.discover(addresses[1])
        await fixture.simulator.setInRange(addresses[1], false)
        let aborted = await #expect(throws: BlueZError.self) { try await second.connect() }
        #expect(aborted?.message == "le-connection-abort-by-local")
        await fixture.simulator.setAdapterPowered(false)
        let off = await #expect(throws: BlueZError.self) { try await first.connect() }
        #expect(off?.code == "NotReady")
    }
}
