import Foundation
import GatewayTestSupport
import Testing

/// `make demo` is the first thing a newcomer runs: it must end with a clean verdict.
@Suite("Demo")
struct DemoCommandTests {
    @Test("edge-gateway-lab demo runs the daemon through an outage and ends with every sample delivered exactly once")
    func demoEndsWithExactlyOnceVerdict() async throws {
        let result = try await GatewayProcess.run(
            ["demo", "--sensors", "2", "--duration", "20", "--outage", "5", "--interval-ms", "500"], product: "edge-gateway-lab", timeout: .seconds(300))
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("✓ every accepted sample was delivered exactly once"))
        let accepted = result.outputLines.first { $0.contains("samples accepted (durable)") }
        let count = accepted.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(count >= 40)
        let drain = result.outputLines.first { $0.contains("backlog drain") }
        #expect(drain?.contains("samples in") == true, "the drain after the outage is measured: \(drain ?? "no line")")
    }
}
