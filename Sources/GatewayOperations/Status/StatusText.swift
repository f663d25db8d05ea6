#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayPipeline
import GatewayStatus
import OfflineQueue
import OutputFormats
import Uplink

/// `status` for people: a heading with the daemon's state, the straps as an aligned table, then
/// the queue and the uplink as aligned key/value lists. Never shows a token.
package enum StatusText {
    /// The lines to print.
    package static func render(_ snapshot: GatewaySnapshot) -> [String] {
        let name = snapshot.report?.gatewayName ?? snapshot.configuration.gateway.name
        var lines = ["gateway \(name) (state \(snapshot.stateDirectory))"]
        var heading = TextTable()
        heading.add(["daemon", snapshot.liveness.detail])
        let awaiting = snapshot.report.map { $0.samplesAwaitingClock > 0 ? ", \($0.samplesAwaitingClock) samples waiting for it" : "" } ?? ""
        let effect =
            snapshot.configuration.gateway.holdUntilClockSync ? "samples are held until it is" : "samples are sent with its time: hold_until_clock_sync is off"
        heading.add(["clock", (snapshot.clockSynchronized ? "synchronised" : "NOT synchronised (\(effect))") + awaiting])
        if let report = snapshot.report, let fault = report.storageFault {
            let since = report.storageFaultSince.map { " since \(RFC3339.format($0))" } ?? ""
            heading.add(["storage", "FAILING\(since): \(fault)"])
        } else if let seconds = snapshot.report?.storageSlowCommitSeconds {
            heading.add([
                "storage", "slow: the last commit took \(DecimalText.seconds(nanoseconds: Int64(seconds * 1e9))) s (samples wait in memory; nothing is lost)",
            ])
        }
        if let console = snapshot.console { heading.add(["console", console.summary]) }
        lines += heading.lines
        lines += [""] + sensors(snapshot)
        if let adapters = snapshot.report?.adapters {
            lines += [""] + self.adapters(adapters)
        }
        var queueTable = queue(snapshot.queue)
        if let held = snapshot.heldCount, held > 0 {
            queueTable.add([
                "held for the clock", "\(held) (in \(HeldSamples.fileName); released when the clock synchronises, or with `edge-gateway queue release-held`)",
            ])
        }
        for file in snapshot.movedAside {
            queueTable.add(["moved aside", "\(file.path) (\(file.bytes) bytes, damaged; import its records with `edge-gateway queue import`)"])
        }
        lines += ["", "queue"] + indented(queueTable)
        lines += ["", "uplink"] + indented(uplink(snapshot))
        return lines
    }

    private static func indented(_ table: TextTable) -> [String] {
        table.lines.map { "  " + $0 }
    }

    private static func sensors(_ snapshot: GatewaySnapshot) -> [String] {
        let rows = snapshot.sensorRows
        guard !rows.isEmpty else {
            return ["sensors: none bound" + (snapshot.bindingsProblem.map { " (\($0))" } ?? " (bind one with `edge-gateway pair ADDRESS`)")]
        }
        var table = TextTable(header: [
            "SENSOR", "ALIAS", "PATIENT", "ADAPTER", "STATE", "LAST SAMPLE", "BPM", "BATTERY", "RECEIVED", "ACCEPTED", "DELIVERED", "DUPLICATE", "REJECTED",
            "MALFORMED",
            "RECONNECTS",
        ])
        for row in rows {
            let counts = row.counts
            let numbers: [Int?] = [
                counts?.samplesReceived, counts?.samplesAccepted, counts?.samplesDelivered, counts?.samplesDuplicate,
                counts?.samplesRejected, counts?.malformedFrames, counts?.reconnects,
            ]
            let lastSample = row.status.lastSampleAt.map { AgeText.format(seconds: snapshot.now.timeIntervalSince($0)) + " ago" }
            let described: [String] = [
                row.status.address, row.status.alias ?? "-", row.status.patientID ?? "-", row.status.adapter ?? "-", row.status.state,
                lastSample ?? "-",
                row.status.bpm.map(String.init) ?? "-", row.status.batteryPercent.map { "\($0) %" } ?? "-",
            ]
            table.add(described + numbers.map { $0.map(String.init) ?? "-" })
        }
        var lines = table.lines
        for row in rows where !row.status.stateDetail.isEmpty {
            lines.append("  \(row.status.address): \(row.status.stateDetail)")
        }
        return lines
    }

    /// Each adapter's slots; with none, why straps cannot connect.
    private static func adapters(_ adapters: [GatewayStatusReport.AdapterStatus]) -> [String] {
        guard !adapters.isEmpty else {
            return ["adapters: none present (is bluetoothd running, the dongle plugged in? `edge-gateway doctor` checks)"]
        }
        var table = TextTable(header: ["ADAPTER", "ADDRESS", "POWERED", "SLOTS USED", "FREE", "CONNECTS", "FAILURES", "NO SLOT", "STRAPS"])
        for adapter in adapters {
            let straps = adapter.straps.isEmpty ? "-" : adapter.straps.joined(separator: " ")
            let counts = [adapter.slotsFree, adapter.connects, adapter.failures, adapter.slotRefusals].map(String.init)
            table.add([adapter.name, adapter.address ?? "-", adapter.powered ? "yes" : "NO", "\(adapter.slotsUsed)/\(adapter.slots)"] + counts + [straps])
        }
        return table.lines
    }

    private static func queue(_ result: Result<QueueStats?, QueueError>) -> TextTable {
        var table = TextTable()
        switch result {
        case .failure(let error):
            table.add(["unreadable", error.description])
        case .success(nil):
            table.add(["empty", "no queue file yet (the daemon creates it)"])
        case .success(let stats?):
            table.add(["pending", String(stats.pending)])
            table.add(["leased", String(stats.leased)])
            table.add(["dead", String(stats.dead) + (stats.dead > 0 ? " (see `edge-gateway queue dead`)" : "")])
            table.add(["evicted", String(stats.evicted)])
            table.add(["oldest pending", stats.oldestPendingAgeNanoseconds.map { AgeText.format(seconds: Double($0) / 1e9) } ?? "-"])
            table.add(["database", "\(stats.databaseBytes) bytes"])
        }
        return table
    }

    private static func uplink(_ snapshot: GatewaySnapshot) -> TextTable {
        var table = TextTable()
        let reported = snapshot.report?.uplink
        switch snapshot.credentials {
        case .failure(let error):
            table.add(["credentials", error.description])
        case .success(nil):
            table.add(["enrolment", "not enrolled; run `edge-gateway enroll LINK_OR_CODE`"])
        case .success(let credentials?):
            switch snapshot.uploadServer(credentials) {
            case .success(let server): table.add(["server", server.fhirBatchURL])
            case .failure(let error): table.add(["server", "NOT USED: \(error.message)"])
            }
            table.add(["patient / device", "\(credentials.patientID ?? "-") / \(credentials.deviceID ?? "-")"])
            let expiry = Date(timeIntervalSince1970: TimeInterval(credentials.expiresAt))
            let left = expiry.timeIntervalSince(snapshot.now)
            table.add([
                "token expires",
                RFC3339.format(expiry) + (left > 0 ? " (in \(AgeText.format(seconds: left)))" : " (expired; the daemon renews it when it runs)"),
            ])
            table.add([
                "re-enrolment", credentials.reenrolmentRequired.map { "REQUIRED: \($0); run `edge-gateway enroll` with a new invitation" } ?? "not needed",
            ])
        }
        table.add(["failing since", reported?.currentError.map { "\(when(reported?.failingSince, now: snapshot.now)): \($0)" } ?? "-"])
        table.add(["last success", when(reported?.lastSuccessAt, now: snapshot.now)])
        table.add(["last error", reported?.lastError.map { "\(when(reported?.lastErrorAt, now: snapshot.now)): \($0)" } ?? "-"])
        table.add(["token refreshes", reported.map { String($0.tokenRefreshes) } ?? "-"])
        return table
    }

    private static func when(_ date: Date?, now: Date) -> String {
        date.map { "\(RFC3339.format($0)) (\(AgeText.format(seconds: now.timeIntervalSince($0))) ago)" } ?? "-"
    }
}
