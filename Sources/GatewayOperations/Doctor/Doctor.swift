import BlueZ
import DBus
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayConfiguration
import GatewayPipeline
import OfflineQueue
import Uplink

/// Runs every `doctor` check against the real system: the bus, bluetoothd, JHE, the state
/// directory and the clock. The bus and the clock source are parameters so tests can point the
/// checks at a private bus and decide the clock's verdict.
package struct Doctor {
    let stateDirectory: String
    let configuration: GatewayConfiguration
    var bus: DBusConnection.Bus = .system
    var clockSynchronized: @Sendable () -> Bool = { CaptureClock.isSynchronized }
    var minimumFreeBytes = HostChecks.minimumFreeBytes
    var now: @Sendable () -> Date = { Date() }

    /// The findings, in a fixed order.
    package func run() async -> [DoctorCheck] {
        let bindings = Result { () throws(SensorBindingError) in try SensorBindingStore(directory: stateDirectory).load() }
        var checks = await BluetoothChecks.run(bus: bus, plan: AdapterPlan(configuration.bluetooth), bindings: bindings)
        let credentials = Result { () throws(UplinkError) in try CredentialsFileStore(directory: stateDirectory).load() }
        checks += await UplinkChecks(configuration: configuration, credentials: credentials, bindings: (try? bindings.get()) ?? [], now: now()).run()
        checks.append(HostChecks.diskSpace(stateDirectory: stateDirectory, minimum: minimumFreeBytes))
        checks.append(HostChecks.movedAside(MovedAsideQueue.find(in: stateDirectory)))
        checks.append(HostChecks.clock(synchronized: clockSynchronized(), holding: configuration.gateway.holdUntilClockSync))
        return checks
    }
}

extension Doctor {
    /// The checks for the gateway whose state is in `stateDirectory`, on the system bus.
    package init(stateDirectory: String, configuration: GatewayConfiguration) {
        self.stateDirectory = stateDirectory
        self.configuration = configuration
    }
}
