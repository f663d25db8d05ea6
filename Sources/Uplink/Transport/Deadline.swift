import Synchronization

/// Runs an operation under a deadline that holds even when the operation does not stop at
/// once when cancelled: the caller gets `Deadline.Exceeded` when the time is up, the operation
/// is cancelled and left to wind down on its own (async-http-client ends an abandoned request
/// at its read timeout at the latest). A structured task group would wait for the operation
/// instead, which is how a server that sends a reply head and then nothing, or trickles its
/// body, could hold an upload without end.
enum Deadline {
    /// The time ran out before the operation finished.
    struct Exceeded: Error {}

    /// The operation's result, or `Exceeded` after `timeout`; cancelling the caller cancels the
    /// operation and throws `CancellationError` at once.
    static func run<T: Sendable>(within timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome = FirstOutcome<T>()
        let work = Task {
            do { outcome.settle(.success(try await operation())) } catch { outcome.settle(.failure(error)) }
        }
        let timer = Task {
            try await Task.sleep(for: timeout)
            outcome.settle(.failure(Exceeded()))
            work.cancel()
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { outcome.wait($0) }
        } onCancel: {
            work.cancel()
            outcome.settle(.failure(CancellationError()))
        }
    }
}

/// Hands the first of several racing results to the one waiting continuation, whichever
/// arrives first; later results are dropped.
private final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<T, any Error>)
        case settled(Result<T, any Error>)
        case delivered
    }

    private let state = Mutex<State>(.empty)

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        let ready: Result<T, any Error>? = state.withLock { state in
            switch state {
            case .empty:
                state = .waiting(continuation)
                return nil
            case .settled(let result):
                state = .delivered
                return result
            case .waiting, .delivered:
                return nil
            }
        }
        if let ready { continuation.resume(with: ready) }
    }

    func settle(_ result: Result<T, any Error>) {
        let waiting: CheckedContinuation<T, any Error>? = state.withLock { state in
            switch state {
            case .empty:
                state = .settled(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .settled, .delivered:
                return nil
            }
        }
        waiting?.resume(with: result)
    }
}
