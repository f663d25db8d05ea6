import BlueZ
import BlueZSimulator
import GatewayTestSupport
import Synchronization
import Testing

@Suite("BlueZClient.wait")
struct ClientWaitTests {
    @Test("a wait whose task is cancelled returns at once instead of sitting out its timeout (a daemon stopping mid-connect)")
    func cancelledWaitReturns() async throws {
        let fixture = try await SimulatorFixture.start()
        let finished = Atomic(false)
        let waiting = Task {
            let held = await fixture.client.wait(timeout: .seconds(3600)) { _ in false }
            finished.store(true, ordering: .sequentiallyConsistent)
            return held
        }
        waiting.cancel()
        let returned = await eventually(within: .seconds(60)) { finished.load(ordering: .sequentiallyConsistent) }
        #expect(returned, "the wait ignored its task's cancellation")
        if returned { #expect(await waiting.value == false) }
    }
}
