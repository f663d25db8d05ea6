#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewayStatus
import OfflineQueue
import OutputFormats
import Uplink

/// `status --json`: one object whose keys never change order or meaning (scripts and
/// monitoring read it). Times are RFC 3339 UTC, ages and durations in seconds; unknown values
/// are null. The keys are listed in `StatusCommand`'s help.
package enum StatusJSON {
    /// The object, on one line.
    package static func render(_ snapshot: GatewaySnapshot) -> String {
        var line = JSONLine()
        line.add("gateway", .optional(snapshot.report?.gatewayName ?? snapshot.configuration.gateway.name))
        line.add("state_dir", .string(snapshot.stateDirectory))
        line.add("daemon", .object(daemon(snapshot)))
        line.add("clock", .object(clock(snapshot)))
        let evictions: [String: Int]? = failure(snapshot.queue) == nil ? (try? snapshot.queue.get())?.evictedByStream ?? [:] : nil
        line.add("sensors", .objects(snapshot.sensorRows.map { row in sensor(row, now: snapshot.now, evicted: evictions.map { $0[row.status.address] ?? 0 }) }))
        line.add("adapters", .objects((snapshot.report?.adapters ?? []).map(adapter)))
        line.add("storage", .object(storage(snapshot)))
        line.add("queue", .object(queue(snapshot.queue, held: snapshot.heldCount, movedAside: snapshot.movedAside)))
        line.add("uplink", .object(uplink(snapshot)))
        line.add("console", snapshot.console.map { .object(console($0)) } ?? .null)
        return line.text
    }

    private static func console(_ console: ConsoleAccess) -> JSONLine {
        var line = JSONLine()
        line.add("listen", .string(console.listen))
        line.add("tls", .boolean(console.secured))
        line.add("password_set", .boolean(console.passwordSet))
        line.add("certificate_sha256", .optional(console.certificateFingerprint))
        return line
    }

    private static func time(_ date: Date?) -> JSONLine.Value {
        date.map { .string(RFC3339.format($0)) } ?? .null
    }

    private static func daemon(_ snapshot: GatewaySnapshot) -> JSONLine {
        var line = JSONLine()
        line.add("running", .boolean(snapshot.liveness.running))
        line.add("detail", .string(snapshot.liveness.detail))
        line.add("pid", .optional(snapshot.report.map { Int($0.pid) }))
        line.add("started_at", time(snapshot.report?.startedAt))
        line.add("last_report_at", time(snapshot.report?.writtenAt))
        return line
    }

    private static func clock(_ snapshot: GatewaySnapshot) -> JSONLine {
        var line = JSONLine()
        line.add("synchronized", .boolean(snapshot.clockSynchronized))
        line.add("samples_awaiting_clock", .optional(snapshot.report?.samplesAwaitingClock))
        return line
    }

    private static func storage(_ snapshot: GatewaySnapshot) -> JSONLine {
        var line = JSONLine()
        line.add("fault", snapshot.report?.storageFault.map(JSONLine.Value.string) ?? .null)
        line.add("since", time(snapshot.report?.storageFaultSince))
        line.add("slow_commit_s", snapshot.report?.storageSlowCommitSeconds.map { .number(DecimalText.seconds(nanoseconds: Int64($0 * 1e9))) } ?? .null)
        return line
    }

    /// `evicted` is nil when the queue could not be read.
    private static func sensor(_ row: SensorRow, now: Date, evicted: Int?) -> JSONLine {
        var line = JSONLine()
        line.add("address", .string(row.status.address))
        line.add("alias", .optional(row.status.alias))
        line.add("patient_id", .optional(row.status.patientID))
        line.add("adapter", .optional(row.status.adapter))
        line.add("state", .string(row.status.state))
        line.add("state_detail", .string(row.status.stateDetail))
        line.add("last_sample_at", time(row.status.lastSampleAt))
        line.add("last_sample_age_s", row.status.lastSampleAt.map { .number(AgeText.decimalSeconds(now.timeIntervalSince($0))) } ?? .null)
        line.add("bpm", .optional(row.status.bpm))
        line.add("battery_percent", .optional(row.status.batteryPercent))
        line.add("skin_contact", .optional(row.status.skinContact))
        line.add("rr_intervals_ms", row.status.rrIntervalsMs.map { .array($0.map { .number("\($0)") }) } ?? .null)
        line.add("rssi", .optional(row.status.rssi))
        let counts = row.counts
        line.add("samples_received", .optional(counts?.samplesReceived))
        line.add("samples_accepted", .optional(counts?.samplesAccepted))
        line.add("samples_delivered", .optional(counts?.samplesDelivered))
        line.add("samples_duplicate", .optional(counts?.samplesDuplicate))
        line.add("samples_rejected", .optional(counts?.samplesRejected))
        line.add("samples_evicted", .optional(evicted))
        line.add("malformed_frames", .optional(counts?.malformedFrames))
        line.add("reconnects", .optional(counts?.reconnects))
        return line
    }

    private static func adapter(_ adapter: GatewayStatusReport.AdapterStatus) -> JSONLine {
        var line = JSONLine()
        line.add("name", .string(adapter.name))
        line.add("address", .optional(adapter.address))
        line.add("powered", .boolean(adapter.powered))
        line.add("slots", .integer(adapter.slots))
        line.add("slots_used", .integer(adapter.slotsUsed))
        line.add("slots_free", .integer(adapter.slotsFree))
        line.add("straps", .array(adapter.straps.map(JSONLine.Value.string)))
        line.add("connects", .integer(adapter.connects))
        line.add("failures", .integer(adapter.failures))
        line.add("slot_refusals", .integer(adapter.slotRefusals))
        return line
    }

    /// `held`: samples waiting for the clock in `held.sqlite` (nil when it cannot be read);
    /// `moved_aside`: damaged queue files waiting for `queue import`.
    private static func queue(_ result: Result<QueueStats?, QueueError>, held: Int?, movedAside: [MovedAsideQueue]) -> JSONLine {
        var line = JSONLine()
        let stats = try? result.get()
        let readable = failure(result) == nil
        func count(_ value: Int?) -> JSONLine.Value { readable ? .integer(value ?? 0) : .null }
        line.add("readable", .boolean(readable))
        line.add("error", .optional(failure(result)))
        line.add("pending", count(stats?.pending))
        line.add("leased", count(stats?.leased))
        line.add("dead", count(stats?.dead))
        line.add("evicted", count(stats?.evicted))
        line.add("oldest_pending_age_s", stats?.oldestPendingAgeNanoseconds.map { .number(DecimalText.seconds(nanoseconds: $0)) } ?? .null)
        line.add("db_bytes", count(stats.map { Int($0.databaseBytes) }))
        line.add("held", .optional(held))
        line.add("moved_aside", .array(movedAside.map { .string($0.path) }))
        return line
    }

    /// The failure's description, nil on success.
    static func failure<Success, Failure>(_ result: Result<Success, Failure>) -> String? {
        if case .failure(let error) = result { return "\(error)" }
        return nil
    }

    private static func uplink(_ snapshot: GatewaySnapshot) -> JSONLine {
        var line = JSONLine()
        let credentials = try? snapshot.credentials.get()
        let reported = snapshot.report?.uplink
        line.add("enrolled", .boolean(credentials != nil))
        line.add("credentials_error", .optional(failure(snapshot.credentials)))
        let server = credentials.map(snapshot.uploadServer)
        line.add("server", .optional(credentials?.server.baseURL ?? reported?.server))
        line.add("fhir_url", .optional(try? server?.get().fhirBatchURL))
        line.add("server_error", .optional(server.flatMap(failure)))
        line.add("patient_id", .optional(credentials?.patientID))
        line.add("device_id", .optional(credentials?.deviceID))
        let expiry = credentials.map { Date(timeIntervalSince1970: TimeInterval($0.expiresAt)) }
        line.add("token_expires_at", time(expiry))
        line.add("token_expired", expiry.map { .boolean($0 <= snapshot.now) } ?? .null)
        line.add("token_refreshes", .optional(reported?.tokenRefreshes))
        line.add("last_success_at", time(reported?.lastSuccessAt))
        line.add("last_error_at", time(reported?.lastErrorAt))
        line.add("last_error", .optional(reported?.lastError))
        line.add("current_error", .optional(reported?.currentError))
        line.add("failing_since", time(reported?.failingSince))
        // The credentials file is the truth once read: a new `enroll` clears the flag there
        // before the daemon's next report does.
        let reenrolment = credentials.map(\.reenrolmentRequired) ?? reported?.reenrolmentRequired
        line.add("reenrolment_required", .optional(reenrolment))
        return line
    }
}
