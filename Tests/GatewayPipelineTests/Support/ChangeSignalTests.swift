import Foundation
@testable import GatewayPipeline
import GatewayTestSupport
import Logging
import ServiceLifecycle
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

    @Test("a wait with a limit ends false at the limit, and a raise ends it true well before")
    func limitEndsWait() async throws {
        let signal = ChangeSignal()
        let start = ContinuousClock.now
        #expect(await signal.wait(upTo: .milliseconds(200)) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(200))
        let waiter = Task { await signal.wait(upTo: .seconds(3600)) }
        try await waitUntil { signal.hasWaiter }
        signal.raise()
        #expect(await waiter.value)
    }

    @Test("its service group's graceful shutdown ends a wait that has no limit, without a raise")
    func gracefulShutdownEndsWait() async throws {
        let signal = ChangeSignal()
        let ended = Mutex<Bool?>(nil)
        let service = Waiting {
            let result = await signal.wait()
            ended.withLock { $0 = result }
        }
        let group = ServiceGroup(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await group.run() }
        try await waitUntil { signal.hasWaiter }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(ended.withLock { $0 } == false)
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

/// A service that runs one wait.
private struct Waiting: Service {
    let body: @Sendable () async -> Void

    func run() async throws { await body() }
}
