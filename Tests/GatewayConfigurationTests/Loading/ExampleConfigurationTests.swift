import Foundation
@testable import GatewayConfiguration
@testable import OutputFormats
import Testing

/// `deploy/gateway.toml.example` is the configuration reference: these tests keep it and the
/// parser in step, so the documentation cannot drift from the code.
@Suite("Configuration: deploy/gateway.toml.example")
struct ExampleConfigurationTests {
    static let examplePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/gateway.toml.example").path

    static func exampleText() throws -> String {
        try String(contentsOfFile: examplePath, encoding: .utf8)
    }

    @Test("the example, exactly as shipped, loads to the defaults")
    func exampleIsTheDefaults() throws {
        #expect(try ConfigurationLoader.load(text: Self.exampleText(), path: Self.examplePath, environment: [:]) == GatewayConfiguration())
    }

    @Test("the example sets every key the parser knows, and no other, in schema order")
    func exampleListsEveryKey() throws {
        let documented = try ConfigurationDocument.settings(in: Self.exampleText(), path: Self.examplePath).map(\.key.label)
        #expect(documented == ConfigurationSchema.keys.map(\.label))
    }

    @Test("every key in the example has a comment above it")
    func everyKeyCommented() throws {
        let lines = try Self.exampleText().split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.contains(" = ") && !line.hasPrefix("#") {
            #expect(index > 0 && lines[index - 1].hasPrefix("# "), "no comment above: \(line)")
        }
    }

    @Test("--print output loads back to the same configuration, for the defaults and for unusual strings")
    func printedConfigurationRoundTrips() throws {
        var unusual = GatewayConfiguration()
        unusual.gateway.name = "Zimmer 3 \"Süd\" \\ ok"
        unusual.gateway.stateDirectory = "/srv/state with spaces\u{7F}\t"
        unusual.uplink.baseURL = "https://jhe.example.org"
        unusual.queue.commitInterval = .milliseconds(250)
        unusual.metrics.listen = "[::1]:9464"
        for configuration in [GatewayConfiguration(), unusual] {
            let printed = ConfigurationPrinter.toml(configuration)
            #expect(try ConfigurationLoader.load(text: printed, path: "printed", environment: [:]) == configuration, "\(printed)")
        }
    }

    @Test("TOML quoting escapes quotes, backslashes and control characters")
    func quoting() throws {
        #expect(JSONWriter.quoted("a\"b\\c\nd\u{1}e\u{7F}f\u{9B}") == "\"a\\\"b\\\\c\\nd\\u0001e\\u007ff\\u009b\"")
        var configuration = GatewayConfiguration()
        configuration.gateway.stateDirectory = "/srv/ward\u{7F}3\u{9B}"
        let printed = ConfigurationPrinter.toml(configuration)
        #expect(try ConfigurationLoader.load(text: printed, path: "printed", environment: [:]).gateway.stateDirectory == "/srv/ward\u{7F}3\u{9B}", "\(printed)")
    }
}
