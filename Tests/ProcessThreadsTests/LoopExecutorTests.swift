import CLinux
import Foundation
import GatewayTestSupport
import Synchronization
import Testing

@testable import ProcessThreads

import Glibc

/// The loop executor the daemon runs on: its jobs run on its one thread, in order; its timers
/// carry the daemon's sleeps and delayed actions, wake in deadline order and never early, and a
/// cancelled sleep wakes at once and leaves no timer to wake for; and its thread sleeps while
/// there is nothing to do. Each test runs its own executor on a thread of its own and reaches
/// it through a task executor preference, so the test process keeps its usual global executor.
@Suite struct LoopExecutorTests {
    @Test func jobsRunOnTheExecutorsOwnThreadInTheOrderTheyCame() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let thread = await withTaskExecutorPreference(executor) { clinux_thread_id() }
        #expect(thread == executor.thread)

        let order = Shared<[Int]>([])
        let tasks = (0 ..< 200).map { index in
            Task(executorPreference: executor) { order.value.withLock { $0.append(index) } }
        }
        for task in tasks { await task.value }
        #expect(order.value.withLock { $0 } == Array(0 ..< 200))
    }

    @Test func sleepsAreTheExecutorsTimersAndWakeInDeadlineOrderNeverEarly() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let finished = Shared<[Int]>([])
        let results = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: Bool.self) { group in
                for milliseconds in [600, 200, 400] {
                    group.addTask {
                        let start = ContinuousClock.now
                        try? await executor.sleep(for: .milliseconds(milliseconds))
                        finished.value.withLock { $0.append(milliseconds) }
                        return ContinuousClock.now - start >= .milliseconds(milliseconds)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(executor.timersScheduled == 3)
        #expect(results == [true, true, true])
        #expect(finished.value.withLock { $0 } == [200, 400, 600])
    }

    @Test func anEarlierTimerWakesAThreadAsleepUntilALaterOne() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let long = Task(executorPreference: executor) { try await executor.sleep(for: .seconds(600)) }
        try await waitUntil { executor.sleepingTasks == 1 }
        let start = ContinuousClock.now
        try await executor.sleep(for: .milliseconds(50))
        #expect(ContinuousClock.now - start < .seconds(300))
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }

    @Test func cancellingASleepingTaskResumesItAtOnce() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let sleeper = Task(executorPreference: executor) { try await executor.sleep(for: .seconds(600)) }
        try await waitUntil { executor.sleepingTasks == 1 }
        let start = ContinuousClock.now
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        // Not at the end of its 600 s sleep, which would throw the same error.
        #expect(ContinuousClock.now - start < .seconds(300))
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsAtOnceAndSetsNoTimer() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let sleeper = Task(executorPreference: executor) {
            withUnsafeCurrentTask { $0?.cancel() }
            try await executor.sleep(for: .seconds(600))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(executor.timersScheduled == 0)
    }

    @Test func jobsEnqueuedFromManyThreadsAtOnceAllRun() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let count = Shared(0)
        await withTaskGroup(of: Void.self) { senders in
            for _ in 0 ..< 8 {
                senders.addTask {
                    let tasks = (0 ..< 500).map { _ in Task(executorPreference: executor) { count.value.withLock { $0 += 1 } } }
                    for task in tasks { await task.value }
                }
            }
        }
        #expect(count.value.withLock { $0 } == 4000)
    }

    @Test func anIdleExecutorsThreadIsNotWokenEvenWithATimerPending() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let sleeper = Task(executorPreference: executor) { try await executor.sleep(for: .seconds(600)) }
        try await waitUntil { executor.sleepingTasks == 1 }
        let before = try await asleepRunCount(of: executor.thread)
        // A window in which nothing is due: the thread must stay asleep through all of it.
        try await Task.sleep(for: .seconds(2))
        #expect(try runCount(of: executor.thread) == before)
        sleeper.cancel()
        _ = try? await sleeper.value
        #expect(try runCount(of: executor.thread) > before)
    }

    @Test func aCancelledSleepLeavesNoTimerToWakeFor() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let sleeper = Task(executorPreference: executor) { try await executor.sleep(for: .seconds(600)) }
        try await waitUntil { executor.sleepingTasks == 1 }
        sleeper.cancel()
        _ = try? await sleeper.value
        // Dropped before the thread goes back to sleep, so its deadline can never wake it.
        try await waitUntil { executor.sleepingTasks == 0 }
    }

    @Test func anActionSetAfterADelayRunsOnTheLoopAtItsDeadlineAndACancelledOneNeverRuns() async throws {
        let executor = try await startedLoop()
        defer { executor.stop() }
        let ran = Shared<[Int32]>([])
        let cancelled = executor.after(.seconds(600)) { ran.value.withLock { $0.append(-1) } }
        let start = ContinuousClock.now
        _ = executor.after(.milliseconds(300)) { ran.value.withLock { $0.append(clinux_thread_id()) } }
        cancelled.cancel()
        try await waitUntil { !ran.value.withLock { $0 }.isEmpty }
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(ran.value.withLock { $0 } == [executor.thread])
        // The cancelled timer was dropped, not left to fire at its deadline.
        try await waitUntil { executor.sleepingTasks == 0 }
        #expect(ran.value.withLock { $0 } == [executor.thread])
    }

    /// A loop executor running on a new thread.
    private func startedLoop() async throws -> LoopExecutor {
        let executor = LoopExecutor()
        DetachedThread.start(name: "test-loop") { try? executor.run() }
        try await waitUntil { executor.thread != 0 }
        return executor
    }

    /// The run count of thread `id` once it sleeps in `ppoll`.
    private func asleepRunCount(of id: Int32) async throws -> Int {
        try await waitUntil { try kernelFunction(of: id).contains("poll") }
        return try runCount(of: id)
    }

    /// Where in the kernel thread `id` of this process sleeps (`wchan`): `poll_schedule_timeout…`
    /// once it is in `ppoll`.
    private func kernelFunction(of id: Int32) throws -> String {
        try String(contentsOfFile: "/proc/self/task/\(id)/wchan", encoding: .utf8)
    }

    /// How many times the kernel has put thread `id` of this process on a CPU (schedstat's
    /// third field).
    private func runCount(of id: Int32) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/task/\(id)/schedstat", encoding: .utf8)
        let fields = text.split(whereSeparator: \.isWhitespace)
        return try #require(fields.count >= 3 ? Int(fields[2]) : nil)
    }
}

/// A value the test's tasks update together: a `Mutex` the closures can capture.
private final class Shared<Value: Sendable>: Sendable {
    let value: Mutex<Value>

    init(_ initial: Value) { value = Mutex(initial) }
}
