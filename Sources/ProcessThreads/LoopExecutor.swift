@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import CLinux
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An executor that runs every job on one thread, the one that calls `run()`, and sleeps in the
/// kernel (`ppoll` on an eventfd) until a job is enqueued or its earliest timer falls due.
///
/// Why: on Linux, Swift's default executors are libdispatch's. Its pool creates worker threads
/// on demand, ends them after 5 s without work, and once it has had one keeps a 1 s timer
/// running forever to watch the pool's size; the main queue of an async `main` is served by
/// that pool. An idle daemon therefore woke at least once a second and created a pair of threads
/// for every bit of work (docs/PERFORMANCE.md). This executor wakes only for work: an idle
/// process sleeps until its next deadline, and each burst of work wakes one thread that always
/// exists. Everything the daemon does off its own threads (the D-Bus loop and libcurl have
/// theirs) is short: decoding, SQLite commits, JSON. So one thread is enough; jobs run one at a
/// time, first in, first out, which also makes it a serial executor fit to be the main actor's.
final class LoopExecutor: MainExecutor, TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    private struct Queues {
        var ready: [UnownedJob] = []
        var timers = TimerHeap()
        /// The loop thread is asleep (or about to be) and needs the eventfd to wake.
        var parked = false
        var stopping = false

        /// Marks the thread awake and says whether it was parked, so only the first enqueue
        /// after it went to sleep pays a `write` to the eventfd.
        mutating func unpark() -> Bool {
            defer { parked = false }
            return parked
        }
    }

    private let queues = Mutex(Queues())
    private let wakeDescriptor: Int32
    private let threadID = Atomic<Int32>(0)

    /// An executor whose jobs wait until a thread calls `run()`.
    init() {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(descriptor >= 0, "cannot create the loop executor's eventfd (errno \(errno))")
        wakeDescriptor = descriptor
    }

    /// The kernel's id of the thread in `run()` (for `/proc/self/task/ID`), 0 before.
    var thread: Int32 { threadID.load(ordering: .acquiring) }

    /// How many jobs wait for a timer.
    var sleepingJobs: Int { queues.withLock { $0.timers.count } }

    /// How many jobs were ever given a timer.
    var timersScheduled: UInt64 { queues.withLock { $0.timers.inserted } }

    /// Queues `job` to run as soon as the thread is free.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = queues.withLock { queues in
            queues.ready.append(job)
            return queues.unpark()
        }
        if wake { signal() }
    }

    /// Queues `job` to run once `delay` has passed on `clock`. Durations of clocks other than the
    /// standard ones (whose `Duration` is `Swift.Duration`) go to the platform's executor, which
    /// knows how to convert them.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        guard let delay = delay as? Duration else {
            Self.platformScheduler.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
            return
        }
        schedule(UnownedJob(job), deadline: Self.now() &+ Self.nanoseconds(delay))
    }

    /// Queues `job` to run at `instant` of `clock`, measured from now on that clock.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        enqueue(job, after: clock.now.duration(to: instant), tolerance: tolerance, clock: clock)
    }

    private func schedule(_ job: UnownedJob, deadline: UInt64) {
        let wake = queues.withLock { queues in
            let earlier = queues.timers.earliestDeadline.map { deadline < $0 } ?? true
            queues.timers.insert(job, deadline: deadline)
            return earlier && queues.unpark()
        }
        if wake { signal() }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Runs jobs on the calling thread until `stop()`.
    func run() throws {
        threadID.store(clinux_thread_id(), ordering: .releasing)
        let executor = asUnownedSerialExecutor()
        var batch: [UnownedJob] = []
        while true {
            let sleep: Int64? = queues.withLock { queues in
                queues.parked = false
                guard !queues.stopping else { return nil }
                swap(&batch, &queues.ready)
                let now = Self.now()
                while let due = queues.timers.popDue(at: now) { batch.append(due) }
                guard batch.isEmpty else { return 0 }
                queues.parked = true
                return queues.timers.earliestDeadline.map { Int64($0 - now) } ?? -1
            }
            guard let sleep else { return }
            if batch.isEmpty {
                park(nanoseconds: sleep)
                continue
            }
            for job in batch { job.runSynchronously(on: executor) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Makes `run()` return once the job it runs (if any) is done.
    func stop() {
        let wake = queues.withLock { queues in
            queues.stopping = true
            return queues.unpark()
        }
        if wake { signal() }
    }

    /// Traps unless called on the loop's thread: how the runtime checks an isolation it cannot
    /// prove statically (`MainActor.assumeIsolated`).
    func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "not on the loop executor's thread")
    }

    /// Whether the caller runs on the loop's thread.
    func isIsolatingCurrentContext() -> Bool? {
        clinux_thread_id() == thread
    }

    /// Sleeps until `signal()` or the timeout (forever when negative), and clears the eventfd.
    private func park(nanoseconds: Int64) {
        if clinux_wait_readable(wakeDescriptor, nanoseconds) > 0 {
            var count: UInt64 = 0
            _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : whole &+ UInt64(attoseconds / 1_000_000_000)
    }

    private static var platformScheduler: any SchedulingExecutor {
        PlatformExecutorFactory.defaultExecutor as! any SchedulingExecutor
    }
}

/// How the `edge-gateway` process runs its tasks.
public enum ProcessExecutor {
    /// Runs `body` as the process's first task on a `LoopExecutor` that is both the main and the
    /// default executor, with the calling thread (the process's main thread) as its one thread;
    /// exits with status 0 when `body` returns. Call it from a synchronous `main`, before any
    /// task exists: `_createExecutors` can only replace executors nothing has used yet, and an
    /// async `main` would already have queued its first job on libdispatch's main queue.
    public static func runMain(_ body: @escaping @Sendable () async -> Void) -> Never {
        _createExecutors(factory: LoopExecutorFactory.self)
        Task {
            await body()
            exit(0)
        }
        try? LoopExecutorFactory.loop.run()
        exit(0)
    }
}

/// What `_createExecutors` asks for: the process's one loop, as main and default executor.
private enum LoopExecutorFactory: ExecutorFactory {
    static let loop = LoopExecutor()
    static var mainExecutor: any MainExecutor { loop }
    static var defaultExecutor: any TaskExecutor { loop }
}
