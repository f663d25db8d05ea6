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

    /// The route `make test-arm64` takes with the arm64 build: another program given as the
    /// gateway (here a link to the sibling build: a script written here could not be run while
    /// another test's fork still held it open, ETXTBSY), straps paired with `edge-gateway pair`,
    /// and a SIGKILL in the middle of the outage.
    @Test("with --gateway, --pair and --crash, the samples that survive a SIGKILL mid-outage reach JHE exactly once")
    func demoSurvivesACrashOfTheGatewayItWasGiven() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let wrapper = directory.file("gateway")
        let gateway = GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway").path
        try FileManager.default.createSymbolicLink(atPath: wrapper, withDestinationPath: gateway)
        let result = try await GatewayProcess.run(
            ["demo", "--sensors", "2", "--duration", "24", "--outage", "8", "--interval-ms", "500", "--pair", "--crash", "--gateway", wrapper],
            product: "edge-gateway-lab", timeout: .seconds(300))
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("2 straps paired and bound"))
        let crash = try #require(result.outputLines.first { $0.contains("SIGKILL, restarted") }, "\(result.standardOutput)")
        let survived = Int(crash.split(separator: " ").first { Int($0) != nil } ?? "") ?? 0
        #expect(survived > 0, "\(crash)")
        #expect(result.standardOutput.contains("✓ every accepted sample was delivered exactly once"))
    }
}
