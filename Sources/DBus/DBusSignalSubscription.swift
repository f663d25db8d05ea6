import Synchronization

/// A live signal subscription from `DBusConnection.subscribe(matching:_:finished:)`.
/// Cancelling it removes its match rule from the bus, once: a second cancel does nothing (the
/// bus counts match rules, so removing one twice could remove another subscriber's).
public final class DBusSignalSubscription: Sendable {
    private let cancelHandler: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancelHandler = Mutex(cancel)
    }

    /// Stops delivery and removes the match rule.
    public func cancel() {
        cancelHandler.withLock { handler in
            defer { handler = nil }
            return handler
        }?()
    }
}
