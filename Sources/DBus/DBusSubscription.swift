import Synchronization

/// A live subscription on a connection: signals from `subscribe(matching:_:finished:)`, or a
/// descriptor from `watch(readable:rest:_:ended:)`. Cancelling ends it once: a second cancel does
/// nothing (the bus counts match rules, so removing one twice could remove another
/// subscriber's).
package final class DBusSubscription: Sendable {
    private let cancelHandler: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancelHandler = Mutex(cancel)
    }

    /// Ends the subscription.
    package func cancel() {
        cancelHandler.withLock { handler in
            defer { handler = nil }
            return handler
        }?()
    }
}
