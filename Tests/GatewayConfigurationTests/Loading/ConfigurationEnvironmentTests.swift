@testable import GatewayConfiguration
import Testing

/// `EDGE_GATEWAY_<SECTION>_<KEY>` over the file, checked like the file, with messages naming
/// the variable. The environment is a plain dictionary: no test touches the real one.
@Suite("Configuration: environment overrides")
struct ConfigurationEnvironmentTests {
    static let path = "/etc/edge-gateway/gateway.toml"

    static func load(_ text: String? = nil, _ environment: [String: String]) throws(ConfigurationError) -> GatewayConfiguration {
        try ConfigurationLoader.load(text: text, path: path, environment: environment)
    }

    @Test("variables override the file, with numbers, booleans and strings read as the key's type")
    func overridesFile() throws {
        let configuration = try Self.load(
            "[uplink]\nbatch_size = 20\nrr_intervals = false\n",
            [
                "EDGE_GATEWAY_UPLINK_BATCH_SIZE": "50",
                "EDGE_GATEWAY_UPLINK_RR_INTERVALS": "true",
                "EDGE_GATEWAY_METRICS_LISTEN": "127.0.0.1:9464",
                "EDGE_GATEWAY_QUEUE_COMMIT_INTERVAL_MS": "200",
            ])
        #expect(configuration.uplink.batchSize == 50)
        #expect(configuration.uplink.rrIntervals)
        #expect(configuration.metrics.listen == "127.0.0.1:9464")
        #expect(configuration.queue.commitInterval == .milliseconds(200))
    }

    @Test("every key has an override named after its section and key")
    func everyKeyOverridable() {
        let names = ConfigurationSchema.keys.map(\.environmentVariable)
        #expect(names.contains("EDGE_GATEWAY_BLUETOOTH_RECONNECT_MAX_BACKOFF_S"))
        #expect(names.contains("EDGE_GATEWAY_GATEWAY_STATE_DIR"))
        #expect(Set(names).count == ConfigurationSchema.keys.count)
    }

    @Test(
        "a bad override names the variable, the key and what is allowed",
        arguments: [
            (
                "EDGE_GATEWAY_UPLINK_BATCH_SIZE", "0", ConfigurationError.Code.invalidValue,
                "environment variable EDGE_GATEWAY_UPLINK_BATCH_SIZE=0 (for [uplink] batch_size) is not allowed; expected a whole number of entries from 1 to 1000"
            ),
            (
                "EDGE_GATEWAY_UPLINK_BATCH_SIZE", "fifty", .wrongType,
                "environment variable EDGE_GATEWAY_UPLINK_BATCH_SIZE=fifty (for [uplink] batch_size) is not an integer; expected a whole number of entries from 1 to 1000"
            ),
            (
                "EDGE_GATEWAY_UPLINK_DROP_NO_CONTACT", "yes", .wrongType,
                "environment variable EDGE_GATEWAY_UPLINK_DROP_NO_CONTACT=yes (for [uplink] drop_no_contact) is not a boolean; expected true or false"
            ),
            (
                "EDGE_GATEWAY_METRICS_LISTEN", "localhost", .invalidValue,
                "environment variable EDGE_GATEWAY_METRICS_LISTEN=localhost (for [metrics] listen) is not allowed; expected \"\" (off) or host:port, such as 127.0.0.1:9464 or [::1]:9464"
            ),
            (
                "EDGE_GATEWAY_UPLINK_BATCHSIZE", "5", .unknownVariable,
                "environment variable EDGE_GATEWAY_UPLINK_BATCHSIZE names no key of [uplink]; the overrides of [uplink] are EDGE_GATEWAY_UPLINK_BASE_URL, EDGE_GATEWAY_UPLINK_FHIR_PATH, EDGE_GATEWAY_UPLINK_BATCH_SIZE, EDGE_GATEWAY_UPLINK_INTERVAL_S, EDGE_GATEWAY_UPLINK_RESOLUTION, EDGE_GATEWAY_UPLINK_RR_INTERVALS, EDGE_GATEWAY_UPLINK_DROP_NO_CONTACT, EDGE_GATEWAY_UPLINK_CA_FILE, EDGE_GATEWAY_UPLINK_TIMEOUT_S"
            ),
            (
                "EDGE_GATEWAY_METRICS_PORT", "9464", .unknownVariable,
                "environment variable EDGE_GATEWAY_METRICS_PORT names no key of [metrics]; the overrides of [metrics] are EDGE_GATEWAY_METRICS_LISTEN"
            ),
        ])
    func badOverride(variable: String, value: String, code: ConfigurationError.Code, message: String) {
        #expect(throws: ConfigurationError(code, message)) {
            try Self.load(nil, [variable: value])
        }
    }

    @Test("EDGE_GATEWAY_* variables that are not about a section are left alone")
    func unrelatedVariablesIgnored() throws {
        #expect(try Self.load(nil, ["EDGE_GATEWAY_DEMO_SPEED": "2", "EDGE_GATEWAY": "x", "PATH": "/bin"]) == GatewayConfiguration())
    }

    @Test("EDGE_GATEWAY_STATE_DIR and EDGE_GATEWAY_GATEWAY_STATE_DIR both override [gateway] state_dir; empty EDGE_GATEWAY_STATE_DIR is unset")
    func stateDirectoryAliases() throws {
        let file = "[gateway]\nstate_dir = \"/from/file\"\n"
        #expect(try Self.load(file, [:]).gateway.stateDirectory == "/from/file")
        #expect(try Self.load(file, ["EDGE_GATEWAY_STATE_DIR": "/from/env"]).gateway.stateDirectory == "/from/env")
        #expect(try Self.load(file, ["EDGE_GATEWAY_GATEWAY_STATE_DIR": "/from/env"]).gateway.stateDirectory == "/from/env")
        #expect(
            try Self.load(file, ["EDGE_GATEWAY_STATE_DIR": "/same", "EDGE_GATEWAY_GATEWAY_STATE_DIR": "/same"])
                .gateway.stateDirectory == "/same")
        #expect(try Self.load(file, ["EDGE_GATEWAY_STATE_DIR": ""]).gateway.stateDirectory == "/from/file")
        #expect(try Self.load(nil, [:]).gateway.stateDirectory == "/var/lib/edge-gateway")
        #expect(
            throws: ConfigurationError(
                .conflictingVariables,
                "environment variable EDGE_GATEWAY_GATEWAY_STATE_DIR=/a (for [gateway] state_dir) and environment variable EDGE_GATEWAY_STATE_DIR=/b (for [gateway] state_dir) disagree; set only one of them"
            )
        ) {
            try Self.load(file, ["EDGE_GATEWAY_STATE_DIR": "/b", "EDGE_GATEWAY_GATEWAY_STATE_DIR": "/a"])
        }
    }

    @Test("a bad file is reported even when a variable overrides the same key")
    func fileCheckedBeforeOverride() {
        #expect(
            throws: ConfigurationError(
                .invalidValue, "/etc/edge-gateway/gateway.toml: [uplink] batch_size = 0 is not allowed; expected a whole number of entries from 1 to 1000")
        ) {
            try Self.load("[uplink]\nbatch_size = 0\n", ["EDGE_GATEWAY_UPLINK_BATCH_SIZE": "50"])
        }
    }
}
