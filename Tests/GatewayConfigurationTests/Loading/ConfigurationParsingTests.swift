import Foundation
@testable import GatewayConfiguration
import GatewayTestSupport
import Testing

/// Every key of `gateway.toml` read from a file into the typed configuration.
@Suite("Configuration: parsing gateway.toml")
struct ConfigurationParsingTests {
    static let path = "/etc/edge-gateway/gateway.toml"

    /// A file setting every key to a value other than its default.
    /// A self-signed PEM certificate (no key): what `ca_file` must hold.
    static let testCA = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/test-ca.pem").path

    static func everyKey(caFile: String) -> String {
        """
        [gateway]
        name = "clinic-3"
        state_dir = "/srv/gateway"
        hold_until_clock_sync = false

        [bluetooth]
        adapters = "hci1,hci2"
        max_connections = 4
        max_connections_by_adapter = "hci2 = 7"
        max_parallel_connects = 3
        max_parallel_connects_by_adapter = "hci1=1"
        reconnect_max_backoff_s = 120
        stall_timeout_s = 30
        adapter = "hci1"

        [queue]
        max_records = 5000
        max_bytes = 2_097_152
        max_age_days = 7
        commit_interval_ms = 250
        commit_max = 64
        max_in_memory = 5000

        [uplink]
        base_url = "https://jhe.example.org"
        fhir_path = "/fhir/r5/"
        batch_size = 50
        interval_s = 30
        resolution = "5m"
        rr_intervals = true
        drop_no_contact = false
        ca_file = "\(caFile)"
        timeout_s = 20

        [metrics]
        listen = "127.0.0.1:9464"

        [web]
        listen = "0.0.0.0:8443"
        tls_cert = "\(caFile)"
        tls_key = "\(caFile)"
        """
    }

    @Test("each key lands in its property, with durations in the unit the key names")
    func everyKeyParsed() throws {
        let directory = try TemporaryDirectory("config-parse")
        defer { directory.remove() }
        let caFile = directory.file("ca.pem")
        try FileManager.default.copyItem(atPath: Self.testCA, toPath: caFile)
        let text = Self.everyKey(caFile: caFile)
        #expect(
            try ConfigurationDocument.settings(in: text, path: Self.path).count == ConfigurationSchema.keys.count,
            "the file above must set every key the schema has")

        var expected = GatewayConfiguration()
        expected.gateway.name = "clinic-3"
        expected.gateway.stateDirectory = "/srv/gateway"
        expected.gateway.holdUntilClockSync = false
        expected.bluetooth.adapters = "hci1, hci2"
        expected.bluetooth.maxConnections = 4
        expected.bluetooth.maxConnectionsByAdapter = "hci2=7"
        expected.bluetooth.adapter = "hci1"
        expected.bluetooth.maxParallelConnects = 3
        expected.bluetooth.maxParallelConnectsByAdapter = "hci1=1"
        expected.bluetooth.reconnectMaxBackoff = .seconds(120)
        expected.bluetooth.stallTimeout = .seconds(30)
        expected.queue.maxRecords = 5000
        expected.queue.maxBytes = 2_097_152
        expected.queue.maxAge = .seconds(7 * 86_400)
        expected.queue.commitInterval = .milliseconds(250)
        expected.queue.commitMax = 64
        expected.queue.maxInMemory = 5000
        expected.uplink.baseURL = "https://jhe.example.org"
        expected.uplink.fhirPath = "/fhir/r5/"
        expected.uplink.batchSize = 50
        expected.uplink.interval = .seconds(30)
        expected.uplink.resolution = "5m"
        expected.uplink.rrIntervals = true
        expected.uplink.dropNoContact = false
        expected.uplink.caFile = caFile
        expected.uplink.timeout = .seconds(20)
        expected.metrics.listen = "127.0.0.1:9464"
        expected.web.listen = "0.0.0.0:8443"
        expected.web.tlsCertificate = caFile
        expected.web.tlsKey = caFile
        #expect(try ConfigurationLoader.load(text: text, path: Self.path, environment: [:]) == expected)
    }

    @Test("adapters: every adapter by default, a list by name, the old single adapter while adapters is all; limits per adapter")
    func adapterSelection() throws {
        func bluetooth(_ text: String, _ environment: [String: String] = [:]) throws -> GatewayConfiguration.Bluetooth {
            try ConfigurationLoader.load(text: "[bluetooth]\n" + text, path: Self.path, environment: environment).bluetooth
        }
        #expect(try bluetooth("").adapterNames == nil)
        #expect(try bluetooth("adapters = \" hci1 ,hci0,\"").adapterNames == ["hci1", "hci0"])
        #expect(try bluetooth("adapter = \"hci3\"").adapterNames == ["hci3"])
        #expect(try bluetooth("adapter = \"hci3\"\nadapters = \"hci0\"").adapterNames == ["hci0"], "adapters, when not all, wins")
        #expect(try bluetooth("", ["EDGE_GATEWAY_BLUETOOTH_ADAPTERS": "hci0,hci2"]).adapterNames == ["hci0", "hci2"])
        let limits = try bluetooth("max_connections_by_adapter = \"hci0=3, hci1 = 7\"")
        #expect(limits.connectionLimits == ["hci0": 3, "hci1": 7] && limits.maxConnections == 5)
        let connects = try bluetooth("max_parallel_connects = 3\nmax_parallel_connects_by_adapter = \"hci1=1\"")
        #expect(connects.parallelConnectLimits == ["hci1": 1] && connects.maxParallelConnects == 3)
    }

    @Test("no file, an empty file and empty sections all give the defaults")
    func absentMeansDefault() throws {
        for text in [nil, "", "[gateway]\n[uplink]\n# nothing set\n"] {
            #expect(try ConfigurationLoader.load(text: text, path: Self.path, environment: [:]) == GatewayConfiguration())
        }
    }

    @Test("\"\" means the host name, the enrolment's server, no extra CA and no metrics")
    func emptyStringsMeanUnset() throws {
        let text = "[gateway]\nname = \"\"\n[uplink]\nbase_url = \"\"\nca_file = \"\"\n[metrics]\nlisten = \"\"\n"
        let configuration = try ConfigurationLoader.load(text: text, path: Self.path, environment: [:])
        #expect(configuration.gateway.name == ProcessInfo.processInfo.hostName)
        #expect(configuration.uplink.baseURL == nil)
        #expect(configuration.uplink.caFile == nil)
        #expect(configuration.metrics.listen == "")
    }

    @Test(
        "accepts plain http:// to loopback, an IPv6 listen address and a 24h resolution window, and keeps each value",
        arguments: [
            ("[uplink]\nbase_url = \"http://127.0.0.1:8000\"", "base_url", "http://127.0.0.1:8000"),
            ("[uplink]\nbase_url = \"http://localhost:8000/\"", "base_url", "http://localhost:8000/"),
            ("[metrics]\nlisten = \"[::1]:9464\"", "listen", "[::1]:9464"),
            ("[metrics]\nlisten = \"0.0.0.0:9100\"", "listen", "0.0.0.0:9100"),
            ("[uplink]\nresolution = \"24h\"", "resolution", "24h"),
            ("[bluetooth]\nadapter = \"hci12\"", "adapter", "hci12"),
        ])
    func acceptsEdgeValues(text: String, setting: String, expected: String) throws {
        let configuration = try ConfigurationLoader.load(text: text, path: Self.path, environment: [:])
        let value: String? =
            switch setting {
            case "base_url": configuration.uplink.baseURL
            case "listen": configuration.metrics.listen
            case "resolution": configuration.uplink.resolution
            default: configuration.bluetooth.adapter
            }
        #expect(value == expected)
    }

    @Test("the listen address splits into host and port")
    func listenAddress() {
        #expect(ListenAddress("127.0.0.1:9464").map { [$0.host, "\($0.port)"] } == ["127.0.0.1", "9464"])
        #expect(ListenAddress("[::1]:9464").map { [$0.host, "\($0.port)"] } == ["::1", "9464"])
        for bad in ["9464", ":9464", "host:", "host:0", "host:65536", "host:+80", "[]:80", "a b:80", "[::1:80"] {
            #expect(ListenAddress(bad) == nil, "\(bad)")
        }
    }

    @Test("a metrics address beyond this machine is told apart from loopback, so the daemon warns about it")
    func listenAddressReach() {
        for local in ["127.0.0.1:9464", "[::1]:9464", "localhost:9464"] { #expect(ListenAddress(local)?.isLoopback == true, "\(local)") }
        for exposed in ["0.0.0.0:9464", "192.168.1.20:9464", "[::]:9464", "box.lan:9464"] { #expect(ListenAddress(exposed)?.isLoopback == false, "\(exposed)") }
    }
}
