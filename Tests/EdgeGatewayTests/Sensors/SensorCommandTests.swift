import BlueZ
import BlueZSimulator
import DBus
import Foundation
import GATTHeartRate
import GatewayTestSupport
import Testing

/// Runs the real `edge-gateway` sensor commands against a simulated bluetoothd on a private bus.
@Suite("edge-gateway scan, pair, live, sensors, forget")
struct SensorCommandTests {
    /// A private bus with three simulated straps, a state directory, and the environment that
    /// points the binary at both.
    struct Setup {
        let bus: PrivateBus
        let simulator: BluetoothdSimulator
        let state: TemporaryDirectory

        static func start(straps: Int = 3) async throws -> Setup {
            let bus = try PrivateBus()
            let simulator = BluetoothdSimulator(
                busAddress: bus.address, straps: SimulatedStrap.fleet(count: straps, notificationInterval: .milliseconds(100)))
            try await simulator.start()
            return Setup(bus: bus, simulator: simulator, state: try TemporaryDirectory())
        }

        func run(_ arguments: [String]) async throws -> GatewayProcess.Result {
            try await GatewayProcess.run(
                arguments + ["--state-dir", state.path], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        }
    }

    @Test("scan --json lists the three straps, then pair binds one, live prints 10 plausible samples, sensors and forget agree")
    func technicianWorkflow() async throws {
        let setup = try await Setup.start()
        let scan = try await setup.run(["scan", "--json", "--timeout", "3"])
        #expect(scan.status == 0, "\(scan.standardError)")
        let found = scan.outputLines.dropLast()
        #expect(Set(found.compactMap { Self.field("address", in: $0) }) == ["F0:1D:2E:3C:00:01", "F0:1D:2E:3C:00:02", "F0:1D:2E:3C:00:03"])
        #expect(found.allSatisfy { $0.contains(#""paired":false"#) && $0.contains(#""bound":false"#) && $0.contains(#""rssi":-"#) })
        #expect(scan.outputLines.last == #"{"found":3}"#)

        let pair = try await setup.run(["pair", "F0:1D:2E:3C:00:01", "--alias", "bed 1", "--patient", "40006", "--json"])
        #expect(pair.status == 0, "\(pair.standardError)")
        #expect(
            pair.outputLines.first?.contains(
                #""bonded":true,"body_location":"chest","battery_percent":95,"manufacturer":"Polar Electro Oy","model":"H10","bound":true"#) == true)

        let live = try await setup.run(["live", "F0:1D:2E:3C:00:01", "--count", "10", "--json"])
        #expect(live.status == 0, "\(live.standardError)")
        #expect(live.outputLines.count == 10)
        for line in live.outputLines {
            let bpm = try #require(Self.field("bpm", in: line).flatMap { Int($0) })
            #expect((40 ... 180).contains(bpm), "\(line)")
            #expect(line.contains(#""address":"F0:1D:2E:3C:00:01""#) && line.contains(#""contact":"detected""#))
        }

        let sensors = try await setup.run(["sensors", "--json"])
        #expect(sensors.outputLines.count == 1)
        #expect(sensors.outputLines.first?.contains(#""alias":"bed 1","patient_id":"40006""#) == true)

        let forget = try await setup.run(["forget", "F0:1D:2E:3C:00:01"])
        #expect(forget.status == 0)
        let again = try await setup.run(["forget", "F0:1D:2E:3C:00:01"])
        #expect(again.status == 1)
        #expect(again.standardError.contains("is not bound"))
    }

    @Test("pair answers bluetoothd with a NoInputNoOutput agent of its own, not the box's default agent, which stays registered")
    func pairBringsItsOwnAgent() async throws {
        let setup = try await Setup.start(straps: 1)
        let desktop = try await DBusConnection.connect(.address(setup.bus.address))
        defer { desktop.close() }
        let desktopAgent = PairingAgent(connection: desktop, path: "/desktop/agent", accepting: { _ in true })
        try await desktopAgent.register(asDefault: true)

        let pair = try await setup.run(["pair", "F0:1D:2E:3C:00:01", "--verbose"])
        #expect(pair.status == 0, "\(pair.standardError)")
        #expect(pair.standardError.contains("pairing with an agent of its own (NoInputNoOutput)"))
        let strap = try #require(await setup.simulator.strapAddresses.first)
        let agent = try #require(await setup.simulator.pairingAgent(for: strap))
        #expect(agent.capability == "NoInputNoOutput" && agent.owner != desktop.uniqueName)
        #expect(await setup.simulator.registeredAgents.map(\.owner) == [desktop.uniqueName])
    }

    @Test("binds a strap that refuses pairing, saying so, and refuses a device without the heart-rate service")
    func pairingRefusedStillBinds() async throws {
        let setup = try await Setup.start()
        let pair = try await setup.run(["pair", "F0:1D:2E:3C:00:03"])
        #expect(pair.status == 0)
        #expect(pair.standardError.contains("does not support pairing"))
        #expect(pair.outputLines.first?.hasPrefix("bound F0:1D:2E:3C:00:03 TICKR 0003") == true)
    }

    @Test("pair tries again after a connect the strap aborted, saying so, and binds it")
    func pairRetriesAnAbortedConnect() async throws {
        let setup = try await Setup.start(straps: 1)
        let strap = try #require(await setup.simulator.strapAddresses.first)
        await setup.simulator.failNextConnect(strap, with: DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-remote"))
        let pair = try await setup.run(["pair", strap.description, "--json"])
        #expect(pair.status == 0, "\(pair.standardError)")
        #expect(pair.standardError.contains("le-connection-abort-by-remote (org.bluez.Error.Failed); trying again in 1 s"))
        #expect(pair.outputLines.first?.contains(#""bound":true"#) == true)
    }

    @Test("exits 75 with a hint to scan for a strap that cannot be found")
    func strapNotFound() async throws {
        let setup = try await Setup.start()
        let pair = try await setup.run(["pair", "AA:BB:CC:DD:EE:FF", "--timeout", "1"])
        #expect(pair.status == 75)
        #expect(pair.standardError.contains("edge-gateway scan"))
    }

    @Test("exits 69 naming the problem when bluetoothd is not running or the adapter is off")
    func bluetoothUnavailable() async throws {
        let setup = try await Setup.start()
        await setup.simulator.setAdapterPowered(false)
        let off = try await setup.run(["scan", "--timeout", "1"])
        #expect(off.status == 69)
        #expect(off.standardError.contains("adapter hci0 is powered off"))
        let missing = try await setup.run(["scan", "--timeout", "1", "--adapter", "hci7"])
        #expect(missing.status == 69)
        #expect(missing.standardError.contains("no adapter hci7 (present: hci0)"))
        await setup.simulator.stop()
        let stopped = try await setup.run(["live", "F0:1D:2E:3C:00:01", "--count", "1"])
        #expect(stopped.status == 69)
        #expect(stopped.standardError.contains("bluetoothd is not running"))
    }

    @Test("a strap advertising terminal escape sequences in its name and GATT strings cannot drive the technician's terminal: scan and pair print them escaped")
    func hostileNamesAreEscaped() async throws {
        let bus = try PrivateBus()
        let hostile = SimulatedStrap(
            address: BluetoothAddress("F0:1D:2E:3C:66:66")!, name: "\u{1B}]0;PWNED\u{07}\u{1B}[2JStrap\u{202E}",
            manufacturer: "Evil\u{9B}31m Corp", model: "X\r\nfake line")
        let simulator = BluetoothdSimulator(busAddress: bus.address, straps: [hostile])
        try await simulator.start()
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        let scan = try await GatewayProcess.run(["scan", "--timeout", "3", "--state-dir", state.path], environment: environment)
        let pair = try await GatewayProcess.run(["pair", "F0:1D:2E:3C:66:66", "--state-dir", state.path], environment: environment)
        await simulator.stop()
        bus.stop()
        for output in [scan.standardOutput, pair.standardOutput] {
            #expect(
                !output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E || $0.value == 0x0D },
                "a control character reached the terminal: \(output.debugDescription)")
        }
        #expect(scan.standardOutput.contains(#"\u{1b}]0;PWNED\u{7}\u{1b}[2JStrap\u{202e}"#), "\(scan.standardOutput.debugDescription)")
        #expect(pair.status == 0, "\(pair.standardError)")
        #expect(!pair.standardOutput.contains("\nfake line"), "a newline in the model name forged an output line")
    }

    @Test("exits 64 for a malformed address")
    func badAddress() async throws {
        let setup = try await Setup.start(straps: 1)
        let result = try await setup.run(["pair", "not-an-address"])
        #expect(result.status == 64)
    }

    /// The value of a top-level key in a one-line JSON object (numbers and strings).
    static func field(_ key: String, in line: String) -> String? {
        guard let data = line.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let value = object[key]
        else { return nil }
        return "\(value)"
    }
}
