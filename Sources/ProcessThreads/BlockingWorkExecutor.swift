import Glibc
import Synchronization

/// A serial executor with a thread of its own, for an actor whose methods block in the kernel
/// (SQLite's reads, writes and fsyncs): while a slow SD card holds a commit for seconds, only
/// this thread waits, and the process loop goes on taking samples, pinging systemd's watchdog
/// and answering `status`.
///
/// The thread is started at the first job and sleeps on a condition variable while there is
/// nothing to do: no polling. Jobs run one at a time, first in, first out. It keeps timers of
/// its own (``after(_:_:)``): a group commit falls due on this thread, without waking the
/// process loop to wake this one.
///
/// It is a task executor too: a task that prefers it (`withTaskExecutorPreference`) runs its
/// nonisolated code here, and a continuation resumed for it comes back here (the runtime sends
/// a resumed continuation to the global executor, the process loop, unless the task has a
/// preference), so the intake's commit, wait and next batch never leave this thread.
package final class BlockingWorkExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private struct Timer {
        let deadline: UInt64
        let action: @Sendable () -> Void
    }

    private struct Queue {
        var jobs: [UnownedJob] = []
        /// Few (a commit timer per queue file), so a list, not a heap.
        var timers: [Timer] = []
        var started = false

        /// Appends the timers due at `now` to `due`, in deadline order.
        mutating func takeDue(at now: UInt64, into due: inout [Timer]) {
            guard timers.contains(where: { $0.deadline <= now }) else { return }
            due.append(contentsOf: timers.lazy.filter { $0.deadline <= now })
            due.sort { $0.deadline < $1.deadline }
            timers.removeAll { $0.deadline <= now }
        }
    }

    private let name: String
    private let queue = Mutex(Queue())
    /// The thread's `pthread_self()`, 0 before it starts (for ``checkIsolated()``).
    private let thread = Atomic<UInt>(0)
    /// The pthread objects live at fixed addresses, as pthreads require.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An executor whose thread will be named `name` (15 bytes shown by `top -H`).
    package init(name: String) {
        self.name = name
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// The executor the storage of this process runs on: one thread for every queue file, since
    /// they share a disk and a second thread would only queue behind the first.
    package static let storage = BlockingWorkExecutor(name: "egw-storage")

    /// Queues `job` for the thread, starting the thread at the first job.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        wake(afterChanging: { $0.jobs.append(job) })
    }

    /// Runs `action` on this executor's thread once `delay` has passed, between two jobs. An
    /// actor of this executor reaches its state there with `assumeIsolated`.
    package func after(_ delay: Duration, _ action: @escaping @Sendable () -> Void) {
        let deadline = MonotonicTime.now() &+ MonotonicTime.nanoseconds(delay)
        wake(afterChanging: { $0.timers.append(Timer(deadline: deadline, action: action)) })
    }

    /// Whether the caller runs on this executor's thread: what `assumeIsolated` asks outside
    /// a job (in a timer's action).
    package func checkIsolated() {
        precondition(thread.load(ordering: .acquiring) == pthread_self(), "not on the \(name) thread")
    }

    private func wake(afterChanging change: (inout Queue) -> Void) {
        let start = queue.withLock { queue in
            change(&queue)
            defer { queue.started = true }
            return !queue.started
        }
        if start {
            DetachedThread.start(name: name) { [self] in run() }
        } else {
            pthread_mutex_lock(mutex)
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// This executor, for an actor's `unownedExecutor`.
    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// This executor, for a task's preference.
    package func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    private func run() {
        thread.store(pthread_self(), ordering: .releasing)
        let (serial, task) = (asUnownedSerialExecutor(), asUnownedTaskExecutor())
        // Swapped with the queue's, so both keep their capacity: a turn allocates nothing.
        var jobs: [UnownedJob] = []
        var due: [Timer] = []
        while true {
            pthread_mutex_lock(mutex)
            // Checked under the mutex the enqueuer signals under, so a job or timer added
            // between the take and the wait is not slept through.
            while true {
                let now = MonotonicTime.now()
                let next = queue.withLock { queue -> UInt64? in
                    swap(&jobs, &queue.jobs)
                    queue.takeDue(at: now, into: &due)
                    return queue.timers.lazy.map(\.deadline).min()
                }
                guard jobs.isEmpty, due.isEmpty else { break }
                if let next {
                    var until = timespec(tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
                    pthread_cond_timedwait(condition, mutex, &until)
                } else {
                    pthread_cond_wait(condition, mutex)
                }
            }
            pthread_mutex_unlock(mutex)
            for timer in due { timer.action() }
            for job in jobs { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
            due.removeAll(keepingCapacity: true)
            jobs.removeAll(keepingCapacity: true)
        }
    }
}

extension BlockingWorkExecutor {
    /// Runs `body` on this executor's thread, after the jobs queued before it, and returns its
    /// result: blocking work (opening a queue file) that the caller awaits without blocking
    /// its own thread.
    package func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingWork(executor: self).run(body)
    }
}

/// An actor on a `BlockingWorkExecutor`, for `run`.
private actor BlockingWork {
    let executor: BlockingWorkExecutor

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(executor: BlockingWorkExecutor) {
        self.executor = executor
    }

    func run<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T {
        try body()
    }
}
