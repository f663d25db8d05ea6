import Glibc
import Synchronization

/// A serial executor with a thread of its own, for an actor whose methods block in the kernel
/// (SQLite's reads, writes and fsyncs): while a slow SD card holds a commit for seconds, only
/// this thread waits, and the process loop goes on taking samples, pinging systemd's watchdog
/// and answering `status`.
///
/// The thread is started at the first job and sleeps on a condition variable while there is
/// nothing to do: no timer, no polling. Jobs run one at a time, first in, first out.
package final class BlockingWorkExecutor: SerialExecutor, @unchecked Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var started = false
    }

    private let name: String
    private let queue = Mutex(Queue())
    /// The pthread objects live at fixed addresses, as pthreads require.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An executor whose thread will be named `name` (15 bytes shown by `top -H`).
    package init(name: String) {
        self.name = name
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    /// The executor the storage of this process runs on: one thread for every queue file, since
    /// they share a disk and a second thread would only queue behind the first.
    package static let storage = BlockingWorkExecutor(name: "egw-storage")

    /// Queues `job` for the thread, starting the thread at the first job.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let start = queue.withLock { queue in
            queue.jobs.append(job)
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

    private func run() {
        let executor = asUnownedSerialExecutor()
        while true {
            pthread_mutex_lock(mutex)
            var jobs = queue.withLock { queue in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return queue.jobs
            }
            // Checked under the mutex the enqueuer signals under, so a job queued between the
            // take above and the wait below is not slept through.
            while jobs.isEmpty {
                pthread_cond_wait(condition, mutex)
                jobs = queue.withLock { queue in
                    defer { queue.jobs.removeAll(keepingCapacity: true) }
                    return queue.jobs
                }
            }
            pthread_mutex_unlock(mutex)
            for job in jobs { job.runSynchronously(on: executor) }
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
