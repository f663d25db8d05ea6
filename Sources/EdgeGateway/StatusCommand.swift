import ArgumentParser
import GatewayCommandLine
import GatewayOperations
import GatewayStatus
import OutputFormats

/// `edge-gateway status`: what the gateway is doing, from the state directory, whether or not
/// the daemon runs.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the straps, the queue, the uplink and the clock (or the upload history).",
        discussion: """
            Reads <state-dir>: the daemon's status.json (rewritten every few seconds while it \
            runs), sensors.json, the queue (read-only, safe beside the running daemon), \
            credentials.json (tokens are never shown) and upload-history.jsonl. The daemon is \
            "not running" when status.json is missing, its process is gone, or the report is \
            older than three refresh periods; the figures shown are then its last ones.

            --json prints one object with these keys, always in this order:
              gateway, state_dir,
              daemon {running, detail, pid, started_at, last_report_at},
              clock {synchronized, samples_awaiting_clock},
              storage {fault, since, slow_commit_s},
              sensors [{address, alias, patient_id, adapter, state, state_detail, last_sample_at,
                last_sample_age_s, bpm, battery_percent, samples_received, samples_accepted,
                samples_delivered, samples_duplicate, samples_rejected, samples_evicted,
                malformed_frames, reconnects}],
              adapters [{name, address, powered, slots, slots_used, slots_free, straps, connects,
                failures, slot_refusals}],
              queue {readable, error, pending, leased, dead, evicted, oldest_pending_age_s, db_bytes,
                held},
              uplink {enrolled, credentials_error, server, fhir_url, server_error, patient_id,
                device_id, token_expires_at, token_expired, token_refreshes, last_success_at,
                last_error_at, last_error, current_error, failing_since, reenrolment_required},
              console {listen, tls, password_set, certificate_sha256} (null when [web] listen is off)
            Times are RFC 3339 UTC, ages in seconds; unknown values are null (the daemon's \
            counters are null for a strap it has not reported on).

            --history prints the last 200 upload attempts instead (oldest first); with --json \
            one object per line: started_at, duration_s, samples, delivered, duplicate, \
            rejected, held, skipped, retry_later, error.

            Exit status: 0, also when the daemon is not running; 69 the state directory is \
            missing or unreadable; 78 a bad configuration file.
            """
    )

    @OptionGroup var options: OperationsOptions

    @Flag(name: .long, help: "Show the upload history instead of the status.")
    var history = false

    func run() async throws {
        let (configuration, directory) = try options.resolve()
        let snapshot: GatewaySnapshot
        do {
            snapshot = try await GatewaySnapshot.load(stateDirectory: directory, configuration: configuration)
        } catch {
            StandardError.writeLine("edge-gateway status: \(error)")
            throw ExitStatus.unavailable
        }
        let lines: [String]
        if history {
            let attempts = UploadHistory(directory: snapshot.stateDirectory).recent()
            lines = options.json ? UploadHistoryOutput.jsonLines(attempts) : UploadHistoryOutput.table(attempts)
        } else {
            lines = options.json ? [StatusJSON.render(snapshot)] : StatusText.render(snapshot)
        }
        for line in lines { StandardOutput.writeLine(line) }
    }
}
