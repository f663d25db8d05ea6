import CLinux
import Synchronization

import Glibc

/// How the `edge-gateway` process runs its tasks: every job on one `LoopExecutor`, on the
/// process's main thread, instead of on libdispatch's pool.
///
/// It takes the jobs through the concurrency runtime's enqueue hooks
/// (`swift_task_enqueueGlobal_hook`, `swift_task_enqueueMainExecutor_hook`), which Swift 6.2
/// and 6.3 both consult, so the Pi's build (Debian's 6.2.3) and the amd64 build (6.3.1) run
/// the same way; 6.3's executor factories do not exist in 6.2. Sleeps do not pass through any
/// hook on either toolchain (6.2 arms a libdispatch timer directly), so the daemon sleeps with
/// `ProcessExecutor.sleep(for:)`, which uses the loop's own timers once the loop runs.
package enum ProcessExecutor {
    /// The process's loop; made on first use, which only `runMain` and the hooks make.
    private static let loop = LoopExecutor()
    /// Whether `runMain` installed the loop; false in any other process (the tests), whose tasks
    /// keep the platform's executors.
    private static let installed = Atomic<Bool>(false)

    /// Runs `body` as the process's first task on a `LoopExecutor` that takes every global and
    /// main-actor job, with the calling thread (the process's main thread) as its one thread;
    /// exits with status 0 when `body` returns. Call it once, from a synchronous `main`, before
    /// any task exists, so no job is already in libdispatch's hands.
    package static func runMain(_ body: @escaping @Sendable () async -> Void) -> Never {
        installed.store(true, ordering: .releasing)
        clinux_set_concurrency_hooks(
            unsafeBitCast(enqueueGlobal, to: UnsafeMutableRawPointer.self),
            unsafeBitCast(enqueueMain, to: UnsafeMutableRawPointer.self))
        Task.detached {
            await body()
            exit(0)
        }
        try? loop.run()
        exit(0)
    }

    /// Suspends the calling task for `duration`: on the process loop's timers when `runMain`
    /// installed one, otherwise with `Task.sleep`. Throws `CancellationError` at once when the
    /// task is cancelled, like `Task.sleep`.
    package static func sleep(for duration: Duration) async throws {
        if installed.load(ordering: .acquiring) {
            try await loop.sleep(for: duration)
        } else {
            try await Task.sleep(for: duration)
        }
    }

    /// Suspends the calling task for at least `duration`, until the next multiple of `grid` on
    /// the monotonic clock: deadlines many tasks keep about alike (each strap's stall deadline)
    /// then fall due together, and the process wakes once for all of them, not once each.
    package static func sleep(for duration: Duration, alignedTo grid: Duration) async throws {
        let delay = MonotonicTime.delay(duration, from: MonotonicTime.now(), alignedTo: grid)
        try await sleep(for: .nanoseconds(Int64(clamping: delay)))
    }

    /// Calls `action` once `duration` has passed, unless the returned timer is cancelled first:
    /// on the process loop's timers when `runMain` installed one, otherwise from a sleeping
    /// task. For a wait that something else may end first, without a task to sleep for it.
    package static func after(_ duration: Duration, _ action: @escaping @Sendable () -> Void) -> ProcessTimer {
        if installed.load(ordering: .acquiring) {
            return ProcessTimer(kind: .loop(loop.after(duration, action)))
        }
        return ProcessTimer(
            kind: .task(
                Task {
                    guard (try? await Task.sleep(for: duration)) != nil else { return }
                    action()
                }))
    }

    /// The runtime's own enqueue functions, which the hooks replace and never call.
    private typealias Original = @convention(thin) (UnownedJob) -> Void
    private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    private static let enqueueGlobal: Hook = { job, _ in loop.enqueue(job, as: .task) }
    private static let enqueueMain: Hook = { job, _ in loop.enqueue(job, as: .main) }
}

/// A timer set with ``ProcessExecutor/after(_:_:)``: one of the process loop's, or, in a
/// process without the loop, a sleeping task.
package struct ProcessTimer: Sendable {
    fileprivate enum Kind {
        case loop(LoopTimer)
        case task(Task<Void, Never>)
    }

    fileprivate let kind: Kind

    /// Drops the action if it has not run yet.
    package func cancel() {
        switch kind {
        case .loop(let timer): timer.cancel()
        case .task(let task): task.cancel()
        }
    }
}
