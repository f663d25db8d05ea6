import Foundation
import GatewayTestSupport
import Testing

/// `make soak` must print the daemon's memory and open files over time and judge them, and its
/// faults must not cost a sample.
@Suite("Soak")
struct SoakCommandTests {
    @Test("edge-gateway-lab soak prints RSS and open files over time through drops, an outage and a restart, and loses nothing")
    func shortSoakReportsSeriesAndZeroLoss() async throws {
        let result = try await GatewayProcess.run(
            ["soak", "--sensors", "2", "--duration", "60", "--sample-every", "5", "--drop-every", "10", "--outage", "10"],
            product: "edge-gateway-lab", timeout: .seconds(400))
        let output = "\(result.standardOutput)\n\(result.standardError)"
        #expect(result.status == 0, "\(output)")
        let readings = result.outputLines.filter { $0.contains(" fds ") && $0.contains("rss") }
        #expect(readings.count == 12, "\(output)")
        #expect(result.standardOutput.contains("link dropped"))
        #expect(result.standardOutput.contains("bluetoothd restarted"))
        #expect(result.standardOutput.contains("): flat"))
        #expect(result.standardOutput.contains("✓ every accepted sample was delivered exactly once"))
    }
}
