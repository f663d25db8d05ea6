/// A condition a test waited for did not come true in time.
public struct ConditionTimedOut: Error, CustomStringConvertible {
    public let timeout: Duration
    public var description: String { "condition not met within \(timeout)" }
}

/// Polls `condition` every 10 ms until it holds; throws after a generous deadline, so tests wait
/// on conditions rather than fixed sleeps and still pass on a loaded 2-core machine.
public func waitUntil(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw ConditionTimedOut(timeout: timeout) }
        try await Task.sleep(for: .milliseconds(10))
    }
}
