import Foundation
import GatewayTestSupport
import Testing

/// The program that goes on a patient's box carries no test double: no simulated bluetoothd, no
/// simulated JHE with its OAuth server, no peripheral, no lab command.
@Suite("Programs: the box and the lab")
struct ProgramSplitTests {
    /// The symbol names in `product`, as `nm` lists them.
    static func symbols(of product: String) async throws -> String {
        let binary = GatewayProcess.productsDirectory.appendingPathComponent(product).path
        let listing = try await GatewayProcess.run(["--defined-only", binary], executable: "/usr/bin/nm", timeout: .seconds(300))
        try #require(listing.status == 0, "nm \(binary): \(listing.standardError)")
        return listing.standardOutput
    }

    @Test("edge-gateway links none of the simulators, the peripheral or the lab; edge-gateway-lab has the simulators")
    func boxLinksNoTestDouble() async throws {
        let box = try await Self.symbols(of: "edge-gateway")
        for module in ["BlueZSimulator", "JHESimulator", "HeartRatePeripheral", "EdgeGatewayLab"] {
            #expect(!box.contains(module), "edge-gateway contains \(module) code")
        }
        let lab = try await Self.symbols(of: "edge-gateway-lab")
        #expect(lab.contains("BlueZSimulator") && lab.contains("JHESimulator"))
    }

    @Test("the lab's commands are not edge-gateway's, and each program names the other in its help")
    func commandsLiveInTheirProgram() async throws {
        for command in ["demo", "soak", "simulate", "jhe-simulator", "append-numbered"] {
            let result = try await GatewayProcess.run([command])
            #expect(result.status == 64, "edge-gateway \(command) exists (status \(result.status))")
            let lab = try await GatewayProcess.run([command, "--help"], product: "edge-gateway-lab")
            #expect(lab.status == 0, "edge-gateway-lab \(command): \(lab.standardError)")
        }
        #expect(try await GatewayProcess.run(["--help"]).standardOutput.contains("edge-gateway-lab"))
        #expect(try await GatewayProcess.run(["--help"], product: "edge-gateway-lab").standardOutput.contains("edge-gateway run"))
    }
}
