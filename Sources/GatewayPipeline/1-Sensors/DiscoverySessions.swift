import BlueZ
import DBus
import GATTHeartRate

/// Shares discovery on each adapter between the supervisors that need it.
///
/// All supervisors use one bus connection, and bluetoothd keeps one discovery session per
/// connection: a second `StartDiscovery` answers `InProgress`, and the first `StopDiscovery`
/// would end it for everybody. So discovery is reference-counted here.
package actor DiscoverySessions {
    private var users: [DBusObjectPath: Int] = [:]

    /// No discovery running yet.
    package init() {}

    /// Runs `body` while discovery for heart-rate straps runs on `adapter`.
    func whileDiscovering<T: Sendable>(on adapter: Adapter, _ body: @Sendable () async throws -> T) async throws -> T {
        try await begin(adapter)
        do {
            let result = try await body()
            await end(adapter)
            return result
        } catch {
            await end(adapter)
            throw error
        }
    }

    private func begin(_ adapter: Adapter) async throws(BlueZError) {
        users[adapter.path, default: 0] += 1
        guard users[adapter.path] == 1 else { return }
        do {
            try await adapter.setDiscoveryFilter(serviceUUIDs: [BluetoothUUID.heartRateService.uuidString])
            try await adapter.startDiscovery()
        } catch  where error.code == "InProgress" {
            return
        } catch {
            users[adapter.path, default: 1] -= 1
            throw error
        }
    }

    private func end(_ adapter: Adapter) async {
        users[adapter.path, default: 1] -= 1
        guard users[adapter.path] == 0 else { return }
        try? await adapter.stopDiscovery()
    }
}
