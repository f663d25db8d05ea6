import CLinux
import Foundation
import GatewayTestSupport
import Synchronization
import Testing

@testable import ProcessThreads

/// The storage thread's executor: its timers run their actions on its own thread, in deadline
/// order and never early; an actor of the executor reaches its state from such an action; and a
/// task that prefers it comes back to its thread when a continuation is resumed from another
/// (the intake's commit, wait and next batch stay on `egw-storage`). Each test has an executor
/// of its own.
@Suite struct BlockingWorkExecutorTests {
    @Test func timersRunOnTheExecutorsThreadInDeadlineOrderNeverEarly() async throws {
        let executor = BlockingWorkExecutor(name: "test-timers")
        let thread = await withTaskExecutorPreference(executor) { clinux_thread_id() }
        let fired = Mutex<[(milliseconds: Int, thread: Int32, early: Bool)]>([])
        let start = ContinuousClock.now
        for milliseconds in [600, 200, 400] {
            executor.after(.milliseconds(milliseconds)) {
                let early = ContinuousClock.now - start < .milliseconds(milliseconds)
                fired.withLock { $0.append((milliseconds, clinux_thread_id(), early)) }
            }
        }
        try await waitUntil { fired.withLock { $0.count } == 3 }
        let seen = fired.withLock { $0 }
        #expect(seen.map(\.milliseconds) == [200, 400, 600])
        #expect(seen.allSatisfy { $0.thread == thread && !$0.early })
    }

    @Test func anActorOfTheExecutorReachesItsStateFromATimersAction() async throws {
        let executor = BlockingWorkExecutor(name: "test-isolation")
        let counter = Counter(executor: executor)
        let done = Mutex(false)
        executor.after(.milliseconds(10)) {
            counter.assumeIsolated { $0.count += 1 }
            done.withLock { $0 = true }
        }
        try await waitUntil { done.withLock { $0 } }
        #expect(await counter.count == 1)
    }

    @Test func aTaskThatPrefersTheExecutorResumesOnItsThreadAfterAContinuation() async throws {
        let executor = BlockingWorkExecutor(name: "test-resume")
        let (before, after) = await withTaskExecutorPreference(executor) {
            let before = clinux_thread_id()
            // Resumed from a thread of Foundation's, as the D-Bus thread resumes the intake.
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume() }
            }
            return (before, clinux_thread_id())
        }
        #expect(before == after)
    }
}

private actor Counter {
    let executor: BlockingWorkExecutor
    var count = 0

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(executor: BlockingWorkExecutor) {
        self.executor = executor
    }
}
