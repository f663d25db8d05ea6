import Foundation
import GATTHeartRate
@testable import GatewayPipeline
@testable import GatewayStatus
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

    @Test("the report reads each strap's tally (samples, rate, contact, RR, last sample, malformed frames) and RSSI; a strap bound again keeps its tally")
    func reportReadsTheTally() throws {
        let counters = DaemonCounters()
        let binding = SensorBinding(address: Self.strap, alias: "bed 1", patientID: "40006", addedAt: Date())
        let tally = counters.update { $0.track(binding) }
        tally.sample(HeartRateMeasurement(bpm: 71, contact: .notDetected), wallClock: 1_800_000_000_000_000_000)
        tally.sample(HeartRateMeasurement(bpm: 73, contact: .detected, rrIntervals: [1024, 840]), wallClock: 1_800_000_001_000_000_000)
        #expect(tally.malformedFrame() == 1)
        counters.update { $0.record(.sighted(Self.strap, rssi: -67)) }
        let entry = try #require(Self.report(counters).sensors.first)
        #expect(entry.samplesReceived == 2)
        #expect(entry.bpm == 73)
        #expect(entry.skinContact == "detected")
        #expect(entry.rrIntervalsMs == [1000, 820.3125])
        #expect(entry.rssi == -67)
        #expect(entry.lastSampleAt == Date(timeIntervalSince1970: 1_800_000_001))
        #expect(entry.malformedFrames == 1)
        let history = counters.heartRateHistory(endingAt: 1_800_000_001)
        #expect(history.map(\.address) == [Self.strap.description])
        #expect(history.first?.readings.map(\.bpm) == [71, 73])

        let rebound = counters.update { $0.track(SensorBinding(address: Self.strap, alias: "bed 2", patientID: "40007", addedAt: Date())) }
        #expect(rebound === tally)
        counters.update { $0.untrack(Self.strap) }
        #expect(counters.update { $0.track(binding) } !== tally, "a strap forgotten and paired again starts from zero")
    }

    @Test("the board keeps the last 20 upload rounds, newest last, each with its counts, latency and first reason left queued")
    func uploadHistory() throws {
        let counters = DaemonCounters()
        let other = BluetoothAddress("F0:1D:2E:3C:00:09")!
        for round in 0 ..< 25 {
            counters.uploaded(
                [
                    (Self.strap, .delivered), (other, .duplicate), (Self.strap, .rejected(reason: "422")), (other, .skipped(reason: "no contact")),
                    (Self.strap, .retryLater(reason: "HTTP 503 from the server")), (other, .retryLater(reason: "later")),
                ].suffix(round % 7),
                latency: .milliseconds(round), at: Date(timeIntervalSince1970: Double(round)))
        }
        let rounds = counters.read(\.recentUploads)
        #expect(rounds.map(\.at.timeIntervalSince1970) == (5 ..< 25).map(Double.init), "the oldest five dropped")
        let last = try #require(rounds.last)  // round 24: the last 3 outcomes
        #expect((last.delivered, last.duplicate, last.rejected, last.skipped, last.unsettled) == (0, 0, 0, 1, 2))
        #expect(last.error == "HTTP 503 from the server" && last.samples == 3 && last.seconds == 0.024)
        let whole = try #require(rounds.first { $0.at.timeIntervalSince1970 == 20 })  // all six outcomes
        #expect((whole.delivered, whole.duplicate, whole.rejected, whole.skipped, whole.unsettled) == (1, 1, 1, 1, 2))
    }

    @Test("the placement's loads become the report's adapters and each placed strap's adapter, also for a strap bound after it was placed")
    func adaptersInTheReport() async throws {
        let counters = DaemonCounters()
        counters.update { $0.track(SensorBinding(address: Self.strap, alias: "bed 1", patientID: "40006", addedAt: Date())) }
        let placement = AdapterPlacement(plan: AdapterPlan(maxConnections: 3)) { loads in counters.update { $0.placed(loads) } }
        await placement.observe([RadioAdapter(name: "hci0", address: "00:1A:7D:DA:71:13", powered: true)])
        let other = BluetoothAddress("F0:1D:2E:3C:00:09")!
        #expect(await placement.place(Self.strap, among: [StrapSighting(adapter: "hci0", rssi: -60)]) == "hci0")
        #expect(await placement.place(other, among: [StrapSighting(adapter: "hci0", rssi: -60)]) == "hci0")
        let report = Self.report(counters)
        #expect(report.sensors.first?.adapter == "hci0")
        let adapter = try #require(report.adapters.first)
        #expect(report.adapters.count == 1 && adapter.address == "00:1A:7D:DA:71:13" && adapter.powered)
        #expect(adapter.slots == 3 && adapter.slotsUsed == 2 && adapter.slotsFree == 1)
        #expect(adapter.straps == [Self.strap.description, other.description].sorted())
        counters.update { $0.track(SensorBinding(address: other, alias: nil, patientID: nil, addedAt: Date())) }
        #expect(Self.report(counters).sensors.map(\.adapter) == ["hci0", "hci0"])
        await placement.release(Self.strap)
        #expect(Self.report(counters).sensors.map(\.adapter) == [nil, "hci0"])
    }

    @Test("a refresh that finds the token and the held count unchanged raises no change, so the idle daemon's report is not rewritten; a new figure raises one")
    func refreshRaisesOnlyOnChange() throws {
        let counters = DaemonCounters()
        let credentials = Credentials(
            kind: .patient, server: try ServerAddress(baseURL: "https://jhe.example.org"), clientID: "client",
            accessToken: "ACCESS", refreshToken: "REFRESH", clientKey: nil, expiresAt: 1_800_000_000,
            patientID: "40006", deviceID: "70007")
        counters.refresh { $0.uplinkCredentials(credentials, refreshes: 0) }
        counters.refresh { $0.setSamplesAwaitingClock(3) }
        #expect(counters.changes.acknowledge())

        counters.refresh { $0.uplinkCredentials(credentials, refreshes: 0) }
        counters.refresh { $0.setSamplesAwaitingClock(3) }
        #expect(!counters.changes.acknowledge(), "the same credentials and count again")

        counters.refresh { $0.uplinkCredentials(credentials, refreshes: 1) }
        #expect(counters.changes.acknowledge(), "a token refresh is news")
        #expect(Self.report(counters).uplink.tokenRefreshes == 1)
        counters.refresh { $0.setSamplesAwaitingClock(0) }
        #expect(counters.changes.acknowledge(), "held samples released")
        #expect(Self.report(counters).samplesAwaitingClock == 0)
    }
}
