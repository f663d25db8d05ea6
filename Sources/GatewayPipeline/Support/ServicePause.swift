import ServiceLifecycle

/// Waits between rounds of a service's loop without holding up a graceful shutdown.
package enum ServicePause {
    /// Sleeps for `duration`, returning early when the task is cancelled or its service group
    /// starts shutting down.
    package static func sleep(for duration: Duration) async {
        await ChangeSignal().wait(upTo: duration)
    }
}

extension Task where Success == Never, Failure == Never {
    /// Whether a service loop should stop: its task is cancelled, or its group is shutting down.
    package static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}
