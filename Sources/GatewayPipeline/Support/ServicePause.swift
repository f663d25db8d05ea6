import ProcessThreads
import ServiceLifecycle

/// Waits between rounds of a service's loop without holding up a graceful shutdown.
package enum ServicePause {
    /// Sleeps for `duration`, returning early when the task is cancelled or its service group
    /// starts shutting down.
    package static func sleep(for duration: Duration) async {
        try? await cancelWhenGracefulShutdown { try await ProcessExecutor.sleep(for: duration) }
    }

    /// Waits until `signal` is raised, up to `limit` if given; returns early, like `sleep`, on
    /// cancellation or shutdown. True when the signal ended the wait.
    @discardableResult
    package static func wait(for signal: ChangeSignal, upTo limit: Duration? = nil) async -> Bool {
        await cancelWhenGracefulShutdown {
            guard let limit else {
                await signal.wait()
                return !Task.isCancelled
            }
            return await signal.wait(upTo: limit)
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// Whether a service loop should stop: its task is cancelled, or its group is shutting down.
    package static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}
