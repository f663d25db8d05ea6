import Foundation
@testable import GatewayConfiguration
import GatewayTestSupport
import Testing

/// Each kind of bad file gives one message naming the file, the key and what is allowed.
@Suite("Configuration: bad files")
struct ConfigurationErrorTests {
    static let path = "/cfg/gateway.toml"
    static let sections = "the sections are [gateway], [bluetooth], [queue], [uplink], [metrics], [web]"
    static let adapters = "\"all\" or BlueZ adapter names hciN separated by commas, such as \"hci0, hci1\""
    static let adapter = "expected \"\" or one BlueZ adapter name hciN (the key of versions before `adapters`)"

    /// A bad file, the code it must get and its whole message.
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let code: ConfigurationError.Code
        let message: String
        var testDescription: String { message }
    }

    static let cases: [Case] = [
        Case(
            text: "[upload]\nbatch_size = 1\n", code: .unknownSection,
            message: "/cfg/gateway.toml: unknown section [upload]; \(sections)"),
        Case(
            text: "name = \"box\"\n", code: .unknownSection,
            message: "/cfg/gateway.toml: unknown key name outside any section; \(sections)"),
        Case(
            text: "[uplink]\nbatchsize = 1\n", code: .unknownKey,
            message:
                "/cfg/gateway.toml: unknown key [uplink] batchsize; the keys of [uplink] are base_url, fhir_path, batch_size, interval_s, resolution, rr_intervals, drop_no_contact, ca_file, timeout_s"
        ),
        Case(
            text: "[uplink.tls]\nverify = false\n", code: .unknownKey,
            message:
                "/cfg/gateway.toml: unknown key [uplink] tls; the keys of [uplink] are base_url, fhir_path, batch_size, interval_s, resolution, rr_intervals, drop_no_contact, ca_file, timeout_s"
        ),
        Case(
            text: "[[sensor]]\naddress = \"F0:1D:2E:3C:00:01\"\n", code: .unknownSection,
            message: "/cfg/gateway.toml: unknown section [sensor]; \(sections)"),
        Case(
            text: "[[uplink]]\nbatch_size = 1\n", code: .wrongType,
            message: "/cfg/gateway.toml: [uplink] must be a section (a table), not an array of tables; write [uplink] once, not [[uplink]]"),
        Case(
            text: "uplink = 3\n", code: .wrongType,
            message: "/cfg/gateway.toml: [uplink] must be a section (a table), not an integer"),
        Case(
            text: "[uplink]\nbatch_size = \"50\"\n", code: .wrongType,
            message: "/cfg/gateway.toml: [uplink] batch_size = \"50\" is a string, not an integer; expected a whole number of entries from 1 to 1000"),
        Case(
            text: "[uplink]\ninterval_s = 1.5\n", code: .wrongType,
            message:
                "/cfg/gateway.toml: [uplink] interval_s = 1.5 is a floating-point number, not an integer; expected a whole number of seconds from 1 to 3600"),
        Case(
            text: "[uplink]\ninterval_s = 6e1\n", code: .wrongType,
            message:
                "/cfg/gateway.toml: [uplink] interval_s = 60.0 is a floating-point number, not an integer; expected a whole number of seconds from 1 to 3600"),
        Case(
            text: "[uplink]\nbatch_size = 1979-05-27\n", code: .wrongType,
            message: "/cfg/gateway.toml: [uplink] batch_size = 1979-05-27 is a local date, not an integer; expected a whole number of entries from 1 to 1000"),
        Case(
            text: "[uplink]\nbatch_size = { size = 5 }\n", code: .wrongType,
            message: "/cfg/gateway.toml: [uplink] batch_size = { … } is a table, not an integer; expected a whole number of entries from 1 to 1000"),
        Case(
            text: "[uplink]\nrr_intervals = \"yes\"\n", code: .wrongType,
            message: "/cfg/gateway.toml: [uplink] rr_intervals = \"yes\" is a string, not a boolean; expected true or false"),
        Case(
            text: "[bluetooth]\nadapters = [\"hci0\"]\n", code: .wrongType,
            message: "/cfg/gateway.toml: [bluetooth] adapters = [\"hci0\"] is an array, not a string; expected \(Self.adapters)"),
        Case(
            text: "[uplink]\nbatch_size = 0\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [uplink] batch_size = 0 is not allowed; expected a whole number of entries from 1 to 1000"),
        Case(
            text: "[queue]\nmax_bytes = -1\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [queue] max_bytes = -1 is not allowed; expected a whole number of bytes from 1048576 to 1099511627776"),
        Case(
            text: "[queue]\nmax_records = -5\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [queue] max_records = -5 is not allowed; expected a whole number of records from 1 to 1000000000"),
        Case(
            text: "[queue]\ncommit_interval_ms = 0\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [queue] commit_interval_ms = 0 is not allowed; expected a whole number of milliseconds from 1 to 60000"),
        Case(
            text: "[bluetooth]\nadapters = \"hci0, wlan0\"\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [bluetooth] adapters = \"hci0, wlan0\" is not allowed; expected \(Self.adapters)"),
        Case(
            text: "[bluetooth]\nadapter = \"hci\"\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [bluetooth] adapter = \"hci\" is not allowed; \(Self.adapter)"),
        Case(
            text: "[bluetooth]\nadapters = \"hci0, hci0\"\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [bluetooth] adapters = \"hci0, hci0\" is not allowed (an adapter is named twice); expected \(Self.adapters)"),
        Case(
            text: "[bluetooth]\nmax_connections_by_adapter = \"hci1=7, hci0\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [bluetooth] max_connections_by_adapter = \"hci1=7, hci0\" is not allowed (\"hci0\" is not hciN=count); expected \"\" or hciN=count pairs separated by commas, such as \"hci0=3, hci1=7\" (counts from 1 to 100)"
        ),
        Case(
            text: "[bluetooth]\nmax_parallel_connects_by_adapter = \"hci0=9\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [bluetooth] max_parallel_connects_by_adapter = \"hci0=9\" is not allowed (\"hci0=9\" is not hciN=count); expected \"\" or hciN=count pairs separated by commas, such as \"hci0=1, hci1=4\" (counts from 1 to 8)"
        ),
        Case(
            text: "[web]\ntls_key = \"/nonexistent/web.key\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [web] tls_key = \"/nonexistent/web.key\" is not allowed (no such file); expected \"\" (the gateway's own) or the path of a readable PEM private key, unencrypted (with tls_cert)"
        ),
        Case(
            text: "[uplink]\nbase_url = \"http://jhe.example.org\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [uplink] base_url = \"http://jhe.example.org\" is not allowed (base URL 'http://jhe.example.org' uses plain http:// to a non-loopback host; tokens and health data must go over https://); expected \"\" (the server recorded at enrolment) or an https:// URL (http:// only to a loopback host)"
        ),
        Case(
            text: "[uplink]\nbase_url = \"jhe.example.org\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [uplink] base_url = \"jhe.example.org\" is not allowed (base URL 'jhe.example.org' is not an absolute http(s) URL such as https://jhe.example.org); expected \"\" (the server recorded at enrolment) or an https:// URL (http:// only to a loopback host)"
        ),
        Case(
            text: "[uplink]\nfhir_path = \"FHIR/R5\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [uplink] fhir_path = \"FHIR/R5\" is not allowed; expected \"\" (the path recorded at enrolment) or a path starting with /, such as /FHIR/R5/ (/fhir/r5/ on JHE v0.0.11 and older)"
        ),
        Case(
            text: "[uplink]\nresolution = \"fortnightly\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [uplink] resolution = \"fortnightly\" is not allowed; expected every-sample, or a window such as 60s, 5m, 1h (at most 24h)"),
        Case(
            text: "[uplink]\nca_file = \"/nonexistent/ca.pem\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [uplink] ca_file = \"/nonexistent/ca.pem\" is not allowed (no such file); expected \"\" (the system CA store only) or the path of a readable PEM file"
        ),
        Case(
            text: "[uplink]\nca_file = \"/etc/hostname\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [uplink] ca_file = \"/etc/hostname\" is not allowed (it holds no readable PEM certificate); expected \"\" (the system CA store only) or the path of a readable PEM file"
        ),
        Case(
            text: "[uplink]\nca_file = \"/tmp\"\n", code: .invalidValue,
            message:
                "/cfg/gateway.toml: [uplink] ca_file = \"/tmp\" is not allowed (it is a directory); expected \"\" (the system CA store only) or the path of a readable PEM file"
        ),
        Case(
            text: "[metrics]\nlisten = \"9464\"\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [metrics] listen = \"9464\" is not allowed; expected \"\" (off) or host:port, such as 127.0.0.1:9464 or [::1]:9464"),
        Case(
            text: "[gateway]\nstate_dir = \"\"\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [gateway] state_dir = \"\" is not allowed; expected a directory path such as /var/lib/edge-gateway"),
        Case(
            text: "[gateway]\nname = \"line\\nbreak\"\n", code: .invalidValue,
            message: "/cfg/gateway.toml: [gateway] name = \"line\\nbreak\" is not allowed; expected \"\" (the host name) or up to 64 printable characters"),
    ]

    @Test("a bad key or value gets its code and one exact message", arguments: cases)
    func badFile(_ bad: Case) {
        #expect(throws: ConfigurationError(bad.code, bad.message)) {
            try ConfigurationLoader.load(text: bad.text, path: Self.path, environment: [:])
        }
    }

    @Test("text that is not TOML is reported with the file, line and column")
    func notTOML() {
        let text = "[uplink]\nbatch_size = 100\nbatch_size = 50\n"
        #expect(throws: ConfigurationError(.invalidTOML, "/cfg/gateway.toml:3:1: not valid TOML: key batch_size is defined twice")) {
            try ConfigurationLoader.load(text: text, path: Self.path, environment: [:])
        }
        #expect(
            throws: ConfigurationError(.invalidTOML, "/cfg/gateway.toml:1:8: not valid TOML: expected ] to close the table header, found the end of the line")
        ) {
            try ConfigurationLoader.load(text: "[uplink\n", path: Self.path, environment: [:])
        }
    }

    @Test("a long key or value (a megabyte) is quoted cut to 80 characters, with its length")
    func longTextCut() {
        let long = String(repeating: "k", count: 1 << 20)
        let cut = String(repeating: "k", count: 80) + "… (1048576 characters)"
        let keys = "base_url, fhir_path, batch_size, interval_s, resolution, rr_intervals, drop_no_contact, ca_file, timeout_s"
        #expect(throws: ConfigurationError(.unknownKey, "/cfg/gateway.toml: unknown key [uplink] \(cut); the keys of [uplink] are \(keys)")) {
            try ConfigurationLoader.load(text: "[uplink]\n\(long) = 1\n", path: Self.path, environment: [:])
        }
        #expect(throws: ConfigurationError(.unknownSection, "/cfg/gateway.toml: unknown section [\(cut)]; \(Self.sections)")) {
            try ConfigurationLoader.load(text: "[\(long)]\n", path: Self.path, environment: [:])
        }
        let adapter = Self.adapter
        let quoted = "\"" + String(repeating: "k", count: 79) + "… (1048578 characters)"
        #expect(throws: ConfigurationError(.invalidValue, "/cfg/gateway.toml: [bluetooth] adapter = \(quoted) is not allowed; \(adapter)")) {
            try ConfigurationLoader.load(text: "[bluetooth]\nadapter = \"\(long)\"\n", path: Self.path, environment: [:])
        }
        #expect(
            throws: ConfigurationError(
                .invalidValue, "environment variable EDGE_GATEWAY_BLUETOOTH_ADAPTER=\(cut) (for [bluetooth] adapter) is not allowed; \(adapter)")
        ) {
            try ConfigurationLoader.load(text: nil, path: Self.path, environment: ["EDGE_GATEWAY_BLUETOOTH_ADAPTER": long])
        }
    }

    @Test("the first problem in file order is the one reported")
    func firstProblemWins() {
        let text = "[bluetooth]\nadapter = \"wlan0\"\n[uplink]\nbatch_size = 0\n"
        #expect(
            throws: ConfigurationError(
                .invalidValue, "/cfg/gateway.toml: [bluetooth] adapter = \"wlan0\" is not allowed; \(Self.adapter)")
        ) {
            try ConfigurationLoader.load(text: text, path: Self.path, environment: [:])
        }
    }

    @Test("a missing --config file, an unreadable file and a non-UTF-8 file are errors; a missing default file is not")
    func fileAccess() throws {
        let directory = try TemporaryDirectory("config-file")
        defer { directory.remove() }
        let missing = directory.file("absent.toml")
        #expect(try ConfigurationFile.text(at: missing, required: false) == nil)
        #expect(
            throws: ConfigurationError(
                .missingFile, "\(missing): no such configuration file; create it (every key is described in deploy/gateway.toml.example) or leave out --config")
        ) {
            try ConfigurationFile.text(at: missing, required: true)
        }
        #expect(throws: ConfigurationError(.unreadableFile, "\(directory.path): cannot read the configuration file: Is a directory")) {
            try ConfigurationFile.text(at: directory.path, required: true)
        }
        let binary = directory.file("binary.toml")
        _ = FileManager.default.createFile(atPath: binary, contents: Data([0x5B, 0xFF, 0xFE, 0x5D]))
        #expect(throws: ConfigurationError(.unreadableFile, "\(binary): cannot read the configuration file: it is not UTF-8 text")) {
            try ConfigurationFile.text(at: binary, required: false)
        }
        let good = directory.file("gateway.toml")
        _ = FileManager.default.createFile(atPath: good, contents: Data("[uplink]\nbatch_size = 7\n".utf8))
        #expect(try ConfigurationFile.text(at: good, required: true) == "[uplink]\nbatch_size = 7\n")
    }
}
