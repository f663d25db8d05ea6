import Foundation
@testable import GatewayPipeline
import GatewayTestSupport
import Synchronization
import Testing

@Suite("ChangeSignal")
struct ChangeSignalTests {
    @Test("a raise before the wait ends the next wait at once, and many raises end only one wait")
    func raisesCoalesce() async {
        let signal = ChangeSignal()
        signal.raise()
        signal.raise()
        await signal.wait()
        #expect(await signal.wait(upTo: .milliseconds(20)) == false)
    }

    @Test("a raise from another thread wakes a task already parked in its wait")
    func raiseWakesWaiter() async throws {
        let signal = ChangeSignal()
        let woke = Mutex(false)
        let waiter = Task {
            await signal.wait()
            woke.withLock { $0 = true }
        }
        try await waitUntil { signal.hasWaiter }
        #expect(!woke.withLock { $0 })
        Thread.detachNewThread { signal.raise() }
        try await waitUntil { woke.withLock { $0 } }
        await waiter.value
        #expect(!signal.hasWaiter)
    }

    @Test("cancelling the waiting task ends its wait without a raise")
    func cancellationEndsWait() async {
        let signal = ChangeSignal()
        let waiter = Task { await signal.wait(upTo: .seconds(3600)) }
        waiter.cancel()
        #expect(await waiter.value == false)
    }

    @Test("acknowledging takes the pending raise, so the next wait ends only for a later raise")
    func acknowledgeTakesPendingRaise() async {
        let signal = ChangeSignal()
        #expect(!signal.acknowledge())
        signal.raise()
        #expect(signal.acknowledge())
        #expect(await signal.wait(upTo: .milliseconds(20)) == false)
        signal.raise()
        #expect(await signal.wait(upTo: .seconds(3600)))
    }
}
