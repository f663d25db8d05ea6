import CLinux
import Glibc
import Synchronization

/// An executor that runs every job on one thread, the one that calls `run()`, and sleeps in the
/// kernel (`ppoll` on an eventfd) until a job is enqueued or its earliest timer falls due.
///
/// Why: on Linux, Swift's default executors are libdispatch's. Its pool creates worker threads
/// on demand, ends them after 5 s without work, and once it has had one keeps a 1 s timer
/// running forever to watch the pool's size; the main queue is served by that pool too. An
/// idle daemon therefore woke at least once a second and created a pair of threads for every
/// bit of work (docs/PERFORMANCE.md). This executor wakes only for work: an idle process sleeps
/// until its next deadline, and each burst of work wakes one thread that always exists.
/// Everything the daemon does off its own threads (the D-Bus loop and libcurl have theirs) is
/// short: decoding, SQLite commits, JSON. So one thread is enough; jobs run one at a time, first
/// in, first out. `ProcessExecutor` makes it the process's global and main executor.
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    /// What a queued job runs as: a task executor's or the global executor's job, or a main
    /// actor job, which must run as the main actor's for its isolation checks to hold.
    enum Kind {
        case task
        case main
    }

    private struct Queues {
        var ready: [(job: UnownedJob, kind: Kind)] = []
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

    /// How many timers are set.
    var sleepingTasks: Int { queues.withLock { $0.timers.count } }

    /// How many timers were ever set.
    var timersScheduled: UInt64 { queues.withLock { $0.timers.inserted } }

    /// Queues `job` to run as soon as the thread is free (a task that prefers this executor).
    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job), as: .task)
    }

    /// Queues `job` to run as soon as the thread is free.
    func enqueue(_ job: UnownedJob, as kind: Kind) {
        let wake = queues.withLock { queues in
            queues.ready.append((job, kind))
            return queues.unpark()
        }
        if wake { signal() }
    }

    /// Suspends the calling task until `duration` has passed, on this loop's timers, or throws
    /// `CancellationError` at once when the task is cancelled, as `Task.sleep` does. Its own
    /// timers because the toolchains differ in where `Task.sleep` goes: 6.2's goes straight to
    /// libdispatch's timers, which would wake a pool thread for every sleep.
    func sleep(for duration: Duration) async throws {
        let timer = LoopTimer()
        let deadline = MonotonicTime.now() &+ MonotonicTime.nanoseconds(duration)
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let set = timer.set { fired in
                    if fired { continuation.resume() } else { continuation.resume(throwing: CancellationError()) }
                }
                if set { schedule(timer, deadline: deadline) }
            }
        } onCancel: {
            timer.cancel()
        }
    }

    /// Calls `action` on this loop's thread once `duration` has passed, unless the timer it
    /// returns is cancelled first (a cancelled timer does not wake the loop).
    func after(_ duration: Duration, _ action: @escaping @Sendable () -> Void) -> LoopTimer {
        let timer = LoopTimer()
        _ = timer.set { fired in if fired { action() } }
        schedule(timer, deadline: MonotonicTime.now() &+ MonotonicTime.nanoseconds(duration))
        return timer
    }

    private func schedule(_ timer: LoopTimer, deadline: UInt64) {
        let wake = queues.withLock { queues in
            let earlier = queues.timers.earliestDeadline().map { deadline < $0 } ?? true
            queues.timers.insert(timer, deadline: deadline)
            return earlier && queues.unpark()
        }
        if wake { signal() }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Runs jobs and fires timers on the calling thread until `stop()`.
    func run() throws {
        threadID.store(clinux_thread_id(), ordering: .releasing)
        let taskExecutor = asUnownedTaskExecutor()
        var batch: [(job: UnownedJob, kind: Kind)] = []
        var due: [LoopTimer] = []
        while true {
            let sleep: Int64? = queues.withLock { queues in
                queues.parked = false
                guard !queues.stopping else { return nil }
                swap(&batch, &queues.ready)
                let now = MonotonicTime.now()
                while let timer = queues.timers.popDue(at: now) { due.append(timer) }
                guard batch.isEmpty, due.isEmpty else { return 0 }
                queues.parked = true
                return queues.timers.earliestDeadline().map { Int64($0 - now) } ?? -1
            }
            guard let sleep else { return }
            if batch.isEmpty, due.isEmpty {
                park(nanoseconds: sleep)
                continue
            }
            // A fired timer resumes its task, which queues the task's job for the next turn.
            for timer in due { timer.fire() }
            due.removeAll(keepingCapacity: true)
            for (job, kind) in batch {
                switch kind {
                case .task: job.runSynchronously(on: taskExecutor)
                case .main: job.runSynchronously(on: MainActor.sharedUnownedExecutor)
                }
            }
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

    /// Sleeps until `signal()` or the timeout (forever when negative), and clears the eventfd.
    private func park(nanoseconds: Int64) {
        if clinux_wait_readable(wakeDescriptor, nanoseconds) > 0 {
            var count: UInt64 = 0
            _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
        }
    }
}
