@testable import GatewayDaemon
import Foundation
import GATTHeartRate
import Testing
import Uplink

/// The daemon's counter board, which `status.json`, the metrics and the systemd status line
/// are made from.
@Suite("Daemon: counter board")
struct DaemonCountersTests {
    static let strap = BluetoothAddress("F0:1D:2E:3C:00:01")!

    static func report(_ counters: DaemonCounters) -> GatewayStatusReport {
        counters.read { $0.report(name: "test", startedAt: Date(), refreshSeconds: 5, clockSynchronized: true) }
    }

    @Test("a strap removed with forget stays off the board, whatever its supervisor or the uploader still report about it")
    func forgottenStrapStaysGone() {
        let counters = DaemonCounters()
        counters.update { $0.track(SensorBinding(address: Self.strap, alias: "bed 1", patientID: "40006", addedAt: Date())) }
        counters.update { $0.record(.stateChanged(Self.strap, .subscribed)) }
        #expect(Self.report(counters).sensors.map(\.address) == [Self.strap.description])
        counters.update { $0.untrack(Self.strap) }
        counters.update { $0.record(.stateChanged(Self.strap, .waiting("stopped"))) }
        counters.uploaded([(Self.strap, .delivered)], latency: .milliseconds(5), at: Date())
        #expect(Self.report(counters).sensors.isEmpty)
        #expect(Self.report(counters).uplink.lastSuccessAt != nil, "the upload itself still counts for the uplink")
    }
}
