@testable import GatewayDaemon
import Logging
import Synchronization
import Testing

/// Log lines as journald reads them from standard error.
@Suite("Operations: systemd log lines")
struct SystemdLogHandlerTests {
    @Test("maps every swift-log level to its sd-daemon priority prefix")
    func priorities() {
        let expected: [(Logger.Level, Int)] = [(.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2)]
        for (level, priority) in expected {
            #expect(SystemdLogHandler.priority(of: level) == priority)
            #expect(SystemdLogHandler.format(level: level, label: "l", message: "m", metadata: [:]) == "<\(priority)>l: m")
        }
    }

    @Test("puts label and sorted key=value metadata on one line, escaping newlines and quoting values with spaces as JSON strings")
    func format() {
        let line = SystemdLogHandler.format(
            level: .error, label: "edge-gateway.uplink", message: "upload failed\nsecond line\r\tend",
            metadata: ["status": "503", "server": "jhe.example.org", "reason": "Service \"Unavailable\"\nretry", "empty": ""])
        #expect(
            line
                == #"<3>edge-gateway.uplink: upload failed\nsecond line\r\tend empty="" reason="Service \"Unavailable\"\nretry" server=jhe.example.org status=503"#
        )
        #expect(!line.contains("\n"))
        #expect(SystemdLogHandler.escaped("a\u{7}b\u{1B}c") == #"a\u0007b\u001bc"#)
    }

    @Test("a strap's name reaches the journal with every terminal control escaped: C0, DEL, C1 and bidi overrides")
    func hostileNameIsEscaped() {
        let name = "\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{7F}\u{9B}2J\u{202E}evil"
        let line = SystemdLogHandler.format(level: .notice, label: "edge-gateway", message: "strap \(name)", metadata: ["name": "\(name)"])
        #expect(
            line
                == #"<5>edge-gateway: strap \u001b]0;PWNED\u0007\u001b[2J\u007f\u009b2J\u202eevil name=\u001b]0;PWNED\u0007\u001b[2J\u007f\u009b2J\u202eevil"#
        )
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.value == 0x202E })
    }

    @Test("a Logger through the handler emits only messages at or above its level, with handler, provider and message metadata")
    func throughLogger() {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "edge-gateway.sensors") { label in
            SystemdLogHandler(label: label, level: .info) { line in lines.withLock { $0.append(line) } }
        }
        logger[metadataKey: "gateway"] = "ward-3"
        logger.debug("not shown")
        logger.info("connected", metadata: ["sensor": "F0:1D:2E:3C:00:01"])
        logger.warning("stalled", metadata: ["gateway": "override"])
        #expect(
            lines.withLock { $0 } == [
                "<6>edge-gateway.sensors: connected gateway=ward-3 sensor=F0:1D:2E:3C:00:01",
                "<4>edge-gateway.sensors: stalled gateway=override",
            ])
    }
}
