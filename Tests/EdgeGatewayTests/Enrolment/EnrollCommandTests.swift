import BlueZSimulator
import Foundation
import GatewayTestSupport
import JHESimulator
import Testing

/// `edge-gateway-lab jhe-simulator` and `edge-gateway enroll` as real processes, as a technician runs them.
@Suite("edge-gateway enroll and edge-gateway-lab jhe-simulator")
struct EnrollCommandTests {
    /// Starts `edge-gateway-lab jhe-simulator --port 0` and waits (generously) for its invitation line.
    func startSimulatorProcess(output: String) async throws -> (ChildProcess, String) {
        let process = try ChildProcess(
            GatewayProcess.productsDirectory.appendingPathComponent("edge-gateway-lab").path, ["jhe-simulator", "--port", "0"],
            outputPath: output)
        func invitation() -> String? {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix("invitation link: ") }
            return line.map { String($0.dropFirst("invitation link: ".count)) }
        }
        guard await eventually(within: .seconds(60), polling: .milliseconds(50), { invitation() != nil }), let link = invitation() else {
            process.signal(SIGKILL)
            process.wait()
            throw SimulatorDidNotStart()
        }
        return (process, link)
    }

    struct SimulatorDidNotStart: Error {}

    @Test("`enroll <printed link>` against `edge-gateway-lab jhe-simulator` enrols and prints patient, device and expiry")
    func enrollPrintedLink() async throws {
        let scratch = try TemporaryDirectory("enroll-cli")
        defer { scratch.remove() }
        let (simulator, link) = try await startSimulatorProcess(output: scratch.file("simulator.out"))
        defer {
            simulator.signal(SIGKILL)
            simulator.wait()
        }
        #expect(link.contains("/invite?code=127.0.0.1%3A"))
        let state = scratch.file("state")
        let enrolled = try await GatewayProcess.run(["enroll", link, "--state-dir", state])
        #expect(enrolled.status == 0, "\(enrolled.standardError)")
        #expect(enrolled.outputLines.contains("patient id: \(JHESimulator.defaultPatientID)"))
        #expect(enrolled.outputLines.contains("device id: \(JHESimulator.defaultDeviceID)"))
        #expect(enrolled.outputLines.contains { $0.hasPrefix("token expires: ") })
        let credentials = try String(contentsOfFile: state + "/credentials.json", encoding: .utf8)
        let token = try #require((try JSONSerialization.jsonObject(with: Data(credentials.utf8)) as? [String: Any])?["access_token"] as? String)
        #expect(!enrolled.standardOutput.contains(token) && !enrolled.standardError.contains(token))

        let status = try await GatewayProcess.run(["enroll", "--status", "--state-dir", state])
        #expect(status.status == 0)
        #expect(status.outputLines.contains("state: ok"))
    }

    @Test("bad input gets a specific message and exit 65 (link) or 64 (usage); not enrolled → exit 1")
    func badInput() async throws {
        let state = try TemporaryDirectory("enroll-cli")
        defer { state.remove() }
        let noCode = try await GatewayProcess.run(["enroll", "https://app.example/invite?x=1", "--state-dir", state.path])
        #expect(noCode.status == 65 && noCode.standardError.contains("uplink.invalid-invitation"))
        let insecure = try await GatewayProcess.run(["enroll", "jhe.example.org_abc", "--base-url", "http://jhe.example.org", "--state-dir", state.path])
        #expect(insecure.status == 65 && insecure.standardError.contains("uplink.insecure-url"))
        let both = try await GatewayProcess.run(["enroll", "--status", "--client-credentials", "k", "--state-dir", state.path])
        #expect(both.status == 64)
        let notEnrolled = try await GatewayProcess.run(["enroll", "--status", "--state-dir", state.path])
        #expect(notEnrolled.status == 1 && notEnrolled.standardOutput.contains("not enrolled"))
    }

    @Test("a server that does not answer exits 75 (try again later), naming the refused connection")
    func unreachableServerIsTemporary() async throws {
        let state = try TemporaryDirectory("enroll-cli")
        defer { state.remove() }
        let simulator = JHESimulator()
        let baseURL = try await simulator.start()
        let link = await simulator.issueInvitation()
        await simulator.stop()
        let result = try await GatewayProcess.run(["enroll", link, "--base-url", baseURL, "--state-dir", state.path])
        #expect(result.status == 75, "\(result.standardError)")
        #expect(result.standardError.contains("connection refused") && result.standardError.contains("uplink.connection-failed"))
    }

    @Test("`enroll --client-credentials -` reads the key from standard input and enrols a clinic gateway")
    func clientCredentialsFromStandardInput() async throws {
        let state = try TemporaryDirectory("enroll-cli")
        defer { state.remove() }
        let simulator = JHESimulator()
        let baseURL = try await simulator.start()
        let key = await simulator.createPractitionerClient()
        let result = try await GatewayProcess.run(
            ["enroll", "--client-credentials", "-", "--base-url", baseURL, "--device", "70001", "--state-dir", state.path],
            standardInput: key + "\n")
        await simulator.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.contains("kind: client-credentials"))
        #expect(result.outputLines.contains("device id: 70001"))
        #expect(result.outputLines.contains("fhir endpoint: \(baseURL)/FHIR/R5/"))
        #expect(!result.standardOutput.contains(key))
    }
}
