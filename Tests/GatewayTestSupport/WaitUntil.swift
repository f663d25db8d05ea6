/// A condition a test waited for did not come true in time.
package struct ConditionTimedOut: Error, CustomStringConvertible {
    /// How long `waitUntil` polled before giving up.
    package let timeout: Duration
    /// `condition not met within <timeout>`, for the test's failure message.
    package var description: String { "condition not met within \(timeout)" }
}

/// Polls `condition` every `interval` (10 ms; more for costly checks) until it holds or a
/// generous deadline passes, and says whether it held: tests wait on conditions rather than
/// fixed sleeps, and still pass on a loaded two-core machine.
package func eventually(
    within deadline: Duration = .seconds(60), polling interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let end = ContinuousClock.now + deadline
    while ContinuousClock.now < end {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}

/// Like `eventually`, but throws `ConditionTimedOut` when the condition never holds. The
/// default deadline is long because the whole suite runs its tests concurrently: on a loaded
/// two-core machine a test can wait tens of seconds for a thread.
package func waitUntil(
    timeout: Duration = .seconds(120), polling interval: Duration = .milliseconds(10), _ condition: () async throws -> Bool
) async throws {
    guard try await eventually(within: timeout, polling: interval, condition) else { throw ConditionTimedOut(timeout: timeout) }
}
