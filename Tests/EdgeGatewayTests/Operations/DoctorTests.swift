import BlueZSimulator
import Foundation
import GATTHeartRate
@testable import GatewayCommandLine
@testable import GatewayConfiguration
@testable import GatewayOperations
@testable import GatewayPipeline
import GatewayTestSupport
import JHESimulator
import Testing
import Uplink

/// `doctor` against the real simulators: a private D-Bus with a simulated bluetoothd, and the
/// JHE simulator on loopback, with an enrolled gateway and a bound strap.
@Suite("Operations: doctor")
struct DoctorTests {
    static let strap = "F0:1D:2E:3C:00:01"

    /// A healthy site; each test breaks one thing.
    struct Site {
        let bus: PrivateBus
        let bluetoothd: BluetoothdSimulator
        let jhe: JHESimulator
        let state: TemporaryDirectory

        static func start() async throws -> Site {
            let bus = try PrivateBus()
            let bluetoothd = BluetoothdSimulator(busAddress: bus.address, straps: SimulatedStrap.fleet(count: 1), devicesKnownAtStart: true)
            try await bluetoothd.start()
            let jhe = JHESimulator()
            _ = try await jhe.start()
            let state = try TemporaryDirectory("doctor")
            let transport = try CurlTransport()
            let link = await jhe.issueInvitation()
            _ = try await Enrolment(transport: transport, store: CredentialsFileStore(directory: state.path)).enroll(invitation: link)
            try SensorBindingStore(directory: state.path).bind(
                SensorBinding(
                    address: try #require(BluetoothAddress(DoctorTests.strap)), alias: "bed 1",
                    patientID: String(JHESimulator.defaultPatientID), addedAt: Date()))
            return Site(bus: bus, bluetoothd: bluetoothd, jhe: jhe, state: state)
        }

        func doctor(
            clock: Bool = true, minimumFreeBytes: Int64 = 1, now: Date = Date(), configuration: GatewayConfiguration = GatewayConfiguration()
        ) async -> [DoctorCheck] {
            await Doctor(
                stateDirectory: state.path, configuration: configuration, bus: .address(bus.address),
                clockSynchronized: { clock }, minimumFreeBytes: minimumFreeBytes, now: { now }
            ).run()
        }

        func stop() async {
            await bluetoothd.stop()
            await jhe.stop()
            bus.stop()
            state.remove()
        }
    }

    static func check(_ name: String, in checks: [DoctorCheck]) throws -> DoctorCheck {
        try #require(checks.first { $0.name == name }, "no check \(name) in \(checks.map(\.name))")
    }

    @Test("a healthy site passes every check, in the documented order, each printed as ✓ name: detail")
    func healthy() async throws {
        let site = try await Site.start()
        let checks = await site.doctor()
        await site.stop()
        #expect(
            checks.map(\.name) == ["bluetoothd", "adapter", "sensors", "jhe", "token", "consent (patient 40001)", "disk space", "queue files", "clock"])
        let failures = checks.filter { !$0.passed }.map(\.line)
        #expect(failures.isEmpty, "\(failures)")
        #expect(checks.allSatisfy { $0.line.hasPrefix("✓ \($0.name): ") })
        #expect(try Self.check("token", in: checks).detail.contains("accepted by 127.0.0.1"))
        #expect(try Self.check("adapter", in: checks).detail == "hci0 present and powered; 5 connection slots, 1 bound: room for 4 more straps")
    }

    @Test("adapter off, a strap bluetoothd does not know, and then bluetoothd gone each fail with their fix")
    func bluetoothFailures() async throws {
        let site = try await Site.start()
        await site.bluetoothd.setAdapterPowered(false)
        let off = await site.doctor()
        try SensorBindingStore(directory: site.state.path).bind(
            SensorBinding(
                address: try #require(BluetoothAddress("AA:BB:CC:DD:EE:FF")), alias: nil, patientID: nil, addedAt: Date()))
        await site.bluetoothd.setAdapterPowered(true)
        let unknown = await site.doctor()
        var twoAdapters = GatewayConfiguration()
        twoAdapters.bluetooth.adapters = "hci0, hci1"
        twoAdapters.bluetooth.maxConnections = 1
        let missing = try Self.check("adapter", in: await site.doctor(configuration: twoAdapters))
        twoAdapters.bluetooth.adapters = "all"
        let crowded = try Self.check("adapter", in: await site.doctor(configuration: twoAdapters))
        await site.bluetoothd.stop()
        let absent = await site.doctor()
        await site.stop()

        let adapter = try Self.check("adapter", in: off)
        #expect(!adapter.passed && adapter.line == "✗ adapter: hci0 is powered off — turn it on: bluetoothctl power on (check `rfkill list` if that fails)")
        let sensors = try Self.check("sensors", in: unknown)
        #expect(!sensors.passed && sensors.detail.contains("1 of 2 bound straps unknown to bluetoothd: AA:BB:CC:DD:EE:FF"))
        #expect(try Self.check("adapter", in: unknown).passed)
        #expect(!missing.passed && missing.detail == "no adapter hci1 (present: hci0)")
        #expect(!crowded.passed && crowded.detail == "hci0 present and powered; 1 connection slots, 2 bound: 1 straps cannot connect at once")
        let bluetoothd = try Self.check("bluetoothd", in: absent)
        #expect(
            !bluetoothd.passed && bluetoothd.line.contains("nobody owns org.bluez") && bluetoothd.line.contains("— start it: systemctl start bluetooth"))
        #expect(try !Self.check("adapter", in: absent).passed)
        #expect(try Self.check("jhe", in: absent).passed, "the uplink checks do not depend on Bluetooth")
    }

    @Test("consent withdrawn fails the consent check naming the code and the retry-dead fix")
    func consentWithdrawn() async throws {
        let site = try await Site.start()
        await site.jhe.setConsent(false)
        let checks = await site.doctor()
        await site.stop()
        let consent = try Self.check("consent (patient 40001)", in: checks)
        #expect(!consent.passed)
        #expect(consent.line.contains("omh:heart-rate:2.0) is not consented") && consent.line.contains("edge-gateway queue retry-dead"))
        #expect(try Self.check("token", in: checks).passed)
    }

    @Test("server down fails jhe and leaves token and consent unchecked")
    func serverDown() async throws {
        let site = try await Site.start()
        await site.jhe.stop()
        let checks = await site.doctor()
        await site.stop()
        let jhe = try Self.check("jhe", in: checks)
        #expect(!jhe.passed && jhe.detail.hasPrefix("cannot reach http://127.0.0.1:"))
        #expect(try Self.check("token", in: checks).detail == "not checked: JHE is unreachable")
        #expect(try !Self.check("consent", in: checks).passed)
    }

    @Test("[uplink] base_url naming another server fails jhe with the re-enrolment fix and sends that server nothing")
    func movedServer() async throws {
        let site = try await Site.start()
        let elsewhere = JHESimulator()
        var configuration = GatewayConfiguration()
        configuration.uplink.baseURL = try await elsewhere.start()
        let checks = await site.doctor(configuration: configuration)
        let contacted = await elsewhere.counters
        await elsewhere.stop()
        await site.stop()
        let jhe = try Self.check("jhe", in: checks)
        #expect(!jhe.passed && jhe.detail.contains("is enrolled with"))
        #expect(jhe.line.contains("— enrol with the configured server, or remove [uplink] base_url"))
        #expect(try Self.check("token", in: checks).detail == "not checked: no usable server")
        #expect(contacted.requests == 0)
    }

    @Test("re-enrolment required (the grant died on refresh), a revoked access token and an expired one each fail the token check without refreshing")
    func tokenFailures() async throws {
        let site = try await Site.start()
        await site.jhe.revokeAccessTokens()
        let revoked = await site.doctor()
        let expired = await site.doctor(now: Date().addingTimeInterval(30 * 86_400))
        let tokenRequestsAfterDoctor = await site.jhe.counters.tokenRequests

        await site.jhe.revokeRefreshTokens()
        let transport = try CurlTransport()
        let manager = TokenManager(
            store: CredentialsFileStore(directory: site.state.path), transport: transport,
            now: { Int64(Date().timeIntervalSince1970) + 30 * 86_400 })
        await #expect(throws: UplinkError.self) { try await manager.accessToken() }
        let reenrol = await site.doctor()
        await site.stop()

        let rejected = try Self.check("token", in: revoked)
        #expect(!rejected.passed && rejected.detail.contains("HTTP 401"))
        let old = try Self.check("token", in: expired)
        #expect(!old.passed && old.detail.hasSuffix("the daemon renews it when it runs"))
        #expect(tokenRequestsAfterDoctor == 1, "only the enrolment asked for a token: doctor never refreshes")
        let required = try Self.check("token", in: reenrol)
        #expect(!required.passed && required.line.contains("re-enrolment required") && required.line.contains("edge-gateway enroll"))
        #expect(try Self.check("consent", in: reenrol).detail == "not checked: re-enrolment is required")
    }

    @Test("too little disk space and an unsynchronised clock fail with their fixes")
    func hostFailures() async throws {
        let site = try await Site.start()
        let checks = await site.doctor(clock: false, minimumFreeBytes: .max)
        await site.stop()
        let disk = try Self.check("disk space", in: checks)
        #expect(!disk.passed && disk.detail.hasPrefix("only ") && disk.line.contains("the queue stops accepting samples"))
        let clock = try Self.check("clock", in: checks)
        #expect(!clock.passed && clock.line.contains("timedatectl set-ntp true"))
        #expect(HostChecks.diskSpace(free: 300_000_000, total: 1_000_000_000, directory: "/x", minimum: 256 << 20).passed)
        #expect(!HostChecks.diskSpace(free: 200_000_000, total: 1_000_000_000, directory: "/x", minimum: 256 << 20).passed)
    }

    @Test("the binary honours DBUS_SYSTEM_BUS_ADDRESS, prints one ✓/✗ line per check and a summary, and exits 1 when one fails")
    func command() async throws {
        let site = try await Site.start()
        await site.bluetoothd.setAdapterPowered(false)
        let human = try await GatewayProcess.run(["doctor", "--state-dir", site.state.path], environment: ["DBUS_SYSTEM_BUS_ADDRESS": site.bus.address])
        let json = try await GatewayProcess.run(
            ["doctor", "--json", "--state-dir", site.state.path], environment: ["DBUS_SYSTEM_BUS_ADDRESS": site.bus.address])
        await site.stop()
        #expect(human.status == 1)
        #expect(human.outputLines.count == 10)
        #expect(human.outputLines.dropLast().allSatisfy { $0.hasPrefix("✓ ") || $0.hasPrefix("✗ ") })
        #expect(human.outputLines.contains("✓ bluetoothd: running (org.bluez owned on the system bus)"))
        #expect(human.outputLines.contains { $0.hasPrefix("✗ adapter: hci0 is powered off — ") })
        #expect(human.outputLines.contains { $0.hasPrefix("✓ consent (patient 40001): ") })
        #expect(human.outputLines.contains("✓ queue files: no damaged queue moved aside"))
        let failed = CaptureClock.isSynchronized ? 2 : 3
        #expect(human.outputLines.last == "\(failed) of 9 checks failed")
        #expect(json.status == 1)
        #expect(json.outputLines.count == 10)
        #expect(json.outputLines.last == "{\"passed\":\(9 - failed),\"failed\":\(failed)}")
        let adapter = try #require(try JSONSerialization.jsonObject(with: Data(json.outputLines[1].utf8)) as? [String: Any])
        #expect(adapter["check"] as? String == "adapter" && adapter["ok"] as? Bool == false && adapter["fix"] is String)
    }
}
