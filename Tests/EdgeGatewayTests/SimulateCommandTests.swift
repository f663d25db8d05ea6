import BlueZSimulator
import Foundation
import GatewayTestSupport
import Testing

/// Runs the real `edge-gateway-lab simulate` and checks Debian's own D-Bus clients accept it.
@Suite("edge-gateway-lab simulate")
struct SimulateCommandTests {
    @Test("serves busctl, gdbus and a python3-dbus client that receives notifications, and cleans up on SIGTERM")
    func debianClientsAcceptTheSimulator() async throws {
        let simulate = try ChildProcess(
            GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway-lab").path,
            ["simulate", "--sensors", "3", "--print-address", "--interval-ms", "100"], captureOutput: true)
        let first = try #require(simulate.readLine())
        #expect(first.hasPrefix("DBUS_SYSTEM_BUS_ADDRESS=unix:path="))
        let address = String(first.dropFirst("DBUS_SYSTEM_BUS_ADDRESS=".count))
        let straps = (0 ..< 3).compactMap { _ in simulate.readLine() }
        #expect(straps == ["F0:1D:2E:3C:00:01", "F0:1D:2E:3C:00:02", "F0:1D:2E:3C:00:03"])
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": address]

        let tree = try await GatewayProcess.run(["--system", "--no-pager", "tree", "org.bluez"], executable: "/usr/bin/busctl", environment: environment)
        #expect(tree.status == 0, "\(tree.standardError)")
        #expect(tree.standardOutput.contains("/org/bluez/hci0"))
        #expect(tree.standardOutput.components(separatedBy: "/org/bluez/hci0/dev_").count - 1 == 3)

        let introspection = try await GatewayProcess.run(
            ["introspect", "--system", "--dest", "org.bluez", "--object-path", "/org/bluez/hci0/dev_F0_1D_2E_3C_00_01"],
            executable: "/usr/bin/gdbus", environment: environment)
        #expect(introspection.status == 0, "\(introspection.standardError)")
        #expect(introspection.standardOutput.contains("interface org.bluez.Device1"))
        #expect(introspection.standardOutput.contains("readwrite b Trusted"))

        let client = try await GatewayProcess.run(
            [Self.fixture("python_dbus_notify_client.py"), "F0:1D:2E:3C:00:02", "3"],
            executable: "/usr/bin/python3", environment: environment)
        #expect(client.status == 0, "\(client.standardError)")
        #expect(client.outputLines.count == 3)
        let decoded = try await GatewayProcess.run(["decode", "--json"] + client.outputLines)
        #expect(decoded.status == 0, "every notification is a valid Heart Rate Measurement: \(decoded.standardOutput)")
        #expect(decoded.outputLines.allSatisfy { $0.contains(#""contact":"detected""#) })

        simulate.signal(SIGTERM)
        let status = simulate.wait()
        #expect(status == 0)
        let socket = address.dropFirst("unix:path=".count).prefix { $0 != "," }
        #expect(!FileManager.default.fileExists(atPath: String(socket)), "the private bus is removed")
    }

    @Test("--adapters 3 --max-connections 2: three adapters, the straps known to hci0; the daemon's doctor counts their slots")
    func severalAdapters() async throws {
        let simulate = try ChildProcess(
            GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway-lab").path,
            ["simulate", "--sensors", "2", "--adapters", "3", "--max-connections", "2", "--print-address"], captureOutput: true)
        let first = try #require(simulate.readLine())
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": String(first.dropFirst("DBUS_SYSTEM_BUS_ADDRESS=".count))]
        let tree = try await GatewayProcess.run(["--system", "--no-pager", "tree", "org.bluez"], executable: "/usr/bin/busctl", environment: environment)
        for adapter in ["hci0", "hci1", "hci2"] { #expect(tree.standardOutput.contains("/org/bluez/\(adapter)"), "\(tree.standardOutput)") }
        #expect(tree.standardOutput.components(separatedBy: "/org/bluez/hci0/dev_").count - 1 == 2)
        #expect(!tree.standardOutput.contains("/org/bluez/hci1/dev_"), "straps are known to hci0 only until the others discover them")
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let doctor = try await GatewayProcess.run(["doctor", "--state-dir", state.path], environment: environment)
        #expect(doctor.standardOutput.contains("✓ adapter: hci0, hci1, hci2 present and powered; 15 connection slots, 0 bound: room for 15 more straps"))
        simulate.signal(SIGTERM)
        #expect(simulate.wait() == 0)
    }

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }
}
