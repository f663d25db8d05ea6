import Foundation
import JHESimulator
import Synchronization
@testable import Uplink

/// One test's world: a JHE simulator on a free loopback port, a private state directory, the
/// real async-http-client transport, and the uplink pieces wired as the gateway wires them.
final class SimulatorHarness: Sendable {
    let simulator: JHESimulator
    let baseURL: String
    let stateDirectory: URL
    let transport: CurlTransport
    let store: CredentialsFileStore
    /// The gateway's clock, movable by the test.
    let clock = GatewayClock()

    private init(simulator: JHESimulator, baseURL: String, stateDirectory: URL) throws {
        self.simulator = simulator
        self.baseURL = baseURL
        self.stateDirectory = stateDirectory
        transport = try CurlTransport()
        store = CredentialsFileStore(directory: stateDirectory.path)
    }

    /// Runs `body` with a started harness and always tears it down.
    static func with<T>(tokenLifetime: Int = 1_209_600, _ body: (SimulatorHarness) async throws -> T) async throws -> T {
        let simulator = JHESimulator(tokenLifetime: tokenLifetime)
        let baseURL = try await simulator.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("uplink-harness-\(UUID())")
        let harness = try SimulatorHarness(simulator: simulator, baseURL: baseURL, stateDirectory: directory)
        do {
            let result = try await body(harness)
            await harness.tearDown()
            return result
        } catch {
            await harness.tearDown()
            throw error
        }
    }

    private func tearDown() async {
        await simulator.stop()
        try? FileManager.default.removeItem(at: stateDirectory)
    }

    var now: @Sendable () -> Int64 { { [clock] in clock.seconds.withLock { $0 } } }

    /// The credentials file's content (untyped throws, for use inside `#expect`).
    func stored() throws -> Credentials? { try store.load() }

    func advanceGatewayClock(by seconds: Int64) { clock.seconds.withLock { $0 += seconds } }

    /// Enrols through a fresh invitation link, as a patient's home gateway would.
    @discardableResult
    func enroll(deviceID: String? = nil) async throws -> Credentials {
        let link = await simulator.issueInvitation()
        return try await Enrolment(transport: transport, store: store, now: now).enroll(invitation: link, deviceID: deviceID)
    }

    func tokenManager(store: (any CredentialsPersistence)? = nil) -> TokenManager {
        TokenManager(store: store ?? self.store, transport: transport, now: now)
    }

    /// A client with a short poison-confirmation pause, so bisection tests stay short.
    func client(tokens: TokenManager, batchSize: Int = 100, timeout: Duration = .seconds(30)) -> JHEClient {
        JHEClient(
            tokens: tokens, transport: transport,
            configuration: DeliveryConfiguration(
                batchSize: batchSize, requestTimeout: timeout, poisonConfirmationPause: .milliseconds(20)))
    }
}

/// Seconds since 1970 as the gateway sees them; starts at the real time.
final class GatewayClock: Sendable {
    let seconds = Mutex<Int64>(Int64(Date().timeIntervalSince1970))
}
