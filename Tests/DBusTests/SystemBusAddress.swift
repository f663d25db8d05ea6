import Synchronization
#if canImport(Glibc)
import Glibc
#endif

private let environmentLock = Mutex(())

/// Runs `body` with `DBUS_SYSTEM_BUS_ADDRESS` set to `address`. The environment is per
/// process, so tests that use it take turns.
func withSystemBusAddress(_ address: String, _ body: () async throws -> Void) async throws {
    let previous = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
    _ = environmentLock.withLock { _ in setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1) }
    defer {
        _ = environmentLock.withLock { _ in
            if let previous { setenv("DBUS_SYSTEM_BUS_ADDRESS", previous, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        }
    }
    try await body()
}
