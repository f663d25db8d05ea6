/// Every key of `gateway.toml`, in the order of `deploy/gateway.toml.example`. Adding a key
/// here makes it parseable, overridable as `EDGE_GATEWAY_<SECTION>_<KEY>` and printed by
/// `config check --print`; a test fails until the example documents it.
enum ConfigurationSchema {
    /// The prefix of every override variable.
    static let environmentPrefix = "EDGE_GATEWAY_"

    /// The sections, in file order.
    static let sections = ["gateway", "bluetooth", "queue", "uplink", "metrics", "web"]

    /// The keys, grouped by section in file order.
    static let keys: [ConfigurationKey] = [
        .text(
            "gateway", "name", \.gateway.name,
            allowed: "\"\" (the host name) or up to 64 printable characters", check: ValueChecks.gatewayName),
        .text(
            "gateway", "state_dir", \.gateway.stateDirectory,
            allowed: "a directory path such as /var/lib/edge-gateway", check: ValueChecks.stateDirectory),
        .boolean("gateway", "hold_until_clock_sync", \.gateway.holdUntilClockSync),

        .text(
            "bluetooth", "adapters", \.bluetooth.adapters,
            allowed: "\"all\" or BlueZ adapter names hciN separated by commas, such as \"hci0, hci1\"", check: ValueChecks.adapters),
        .integer("bluetooth", "max_connections", \.bluetooth.maxConnections, 1 ... 100, unit: "connections"),
        .text(
            "bluetooth", "max_connections_by_adapter", \.bluetooth.maxConnectionsByAdapter,
            allowed: "\"\" or hciN=count pairs separated by commas, such as \"hci0=3, hci1=7\" (counts from 1 to 100)",
            check: ValueChecks.countsByAdapter(1 ... 100)),
        .integer("bluetooth", "max_parallel_connects", \.bluetooth.maxParallelConnects, 1 ... 8),
        .text(
            "bluetooth", "max_parallel_connects_by_adapter", \.bluetooth.maxParallelConnectsByAdapter,
            allowed: "\"\" or hciN=count pairs separated by commas, such as \"hci0=1, hci1=4\" (counts from 1 to 8)",
            check: ValueChecks.countsByAdapter(1 ... 8)),
        .duration("bluetooth", "reconnect_max_backoff_s", \.bluetooth.reconnectMaxBackoff, .seconds, 1 ... 3600),
        .duration("bluetooth", "stall_timeout_s", \.bluetooth.stallTimeout, .seconds, 1 ... 600),
        .optionalText(
            "bluetooth", "adapter", \.bluetooth.adapter,
            allowed: "\"\" or one BlueZ adapter name hciN (the key of versions before `adapters`)",
            check: { text throws(SettingValueError) in _ = try ValueChecks.adapter(text) }),

        .integer("queue", "max_records", \.queue.maxRecords, 1 ... 1_000_000_000, unit: "records"),
        .integer("queue", "max_bytes", \.queue.maxBytes, 1_048_576 ... 1_099_511_627_776, unit: "bytes"),
        .duration("queue", "max_age_days", \.queue.maxAge, .days, 1 ... 3650),
        .duration("queue", "commit_interval_ms", \.queue.commitInterval, .milliseconds, 1 ... 60_000),
        .integer("queue", "commit_max", \.queue.commitMax, 1 ... 100_000, unit: "records"),
        .integer("queue", "max_in_memory", \.queue.maxInMemory, 100 ... 1_000_000, unit: "samples"),

        .optionalText(
            "uplink", "base_url", \.uplink.baseURL,
            allowed: "\"\" (the server recorded at enrolment) or an https:// URL (http:// only to a loopback host)",
            check: ValueChecks.baseURL),
        .optionalText(
            "uplink", "fhir_path", \.uplink.fhirPath,
            allowed: "\"\" (the path recorded at enrolment) or a path starting with /, such as /FHIR/R5/ (/fhir/r5/ on JHE v0.0.11 and older)",
            check: { text throws(SettingValueError) in _ = try ValueChecks.fhirPath(text) }),
        .integer("uplink", "batch_size", \.uplink.batchSize, 1 ... 1000, unit: "entries"),
        .duration("uplink", "interval_s", \.uplink.interval, .seconds, 1 ... 3600),
        .text(
            "uplink", "resolution", \.uplink.resolution,
            allowed: "every-sample, or a window such as 60s, 5m, 1h (at most 24h)", check: ValueChecks.resolution),
        .boolean("uplink", "rr_intervals", \.uplink.rrIntervals),
        .boolean("uplink", "drop_no_contact", \.uplink.dropNoContact),
        .optionalText(
            "uplink", "ca_file", \.uplink.caFile,
            allowed: "\"\" (the system CA store only) or the path of a readable PEM file",
            check: ValueChecks.caFile),
        .duration("uplink", "timeout_s", \.uplink.timeout, .seconds, 1 ... 600),

        .text(
            "metrics", "listen", \.metrics.listen,
            allowed: "\"\" (off) or host:port, such as 127.0.0.1:9464 or [::1]:9464", check: ValueChecks.listen),

        .text(
            "web", "listen", \.web.listen,
            allowed:
                "\"\" (off), a loopback host:port such as 127.0.0.1:8080 (no password; from another machine through an SSH tunnel), or any other host:port such as 0.0.0.0:8443 (TLS and a password: edge-gateway web set-password)",
            check: ValueChecks.listen),
        .optionalText(
            "web", "tls_cert", \.web.tlsCertificate,
            allowed: "\"\" (a self-signed certificate the gateway makes) or the path of a readable PEM certificate (with tls_key)",
            check: ValueChecks.readableFile),
        .optionalText(
            "web", "tls_key", \.web.tlsKey,
            allowed: "\"\" (the gateway's own) or the path of a readable PEM private key, unencrypted (with tls_cert)",
            check: ValueChecks.readableFile),
    ]

    /// The keys of one section, in file order.
    static func keys(in section: String) -> [ConfigurationKey] {
        keys.filter { $0.section == section }
    }

    /// The key `[section] name`, if there is one.
    static func key(_ section: String, _ name: String) -> ConfigurationKey? {
        keys.first { $0.section == section && $0.name == name }
    }
}
