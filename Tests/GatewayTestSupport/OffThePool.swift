import Foundation

/// Runs `body` on a thread of its own and returns what it returns: for the blocking calls a test
/// makes (waiting for a child process, reading a socket). Swift's cooperative pool has one thread
/// per core, two on the CI machine, and the tasks a blocked test waits for (a server's reply,
/// Foundation reaping a child) need one of them: two tests blocking both at once waited for each
/// other for ever (seen: a schema check waiting for python3 while a metrics test waited for a
/// reply that no free thread could render).
package func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
