import Foundation
import GatewayCommandLine
import OutputFormats

/// The demo's live view: one row per strap (bpm, captured, queued, delivered) and the uplink's
/// state, redrawn in place on a terminal, printed every few seconds otherwise.
actor DemoDashboard {
    private let stage: DemoStage
    private let interactive: Bool
    private var notes: [String] = []

    init(stage: DemoStage, interactive: Bool) {
        self.stage = stage
        self.interactive = interactive
    }

    /// Adds a timeline line (shown under the table, or printed at once).
    func note(_ text: String) {
        let line = Self.timestamped(text)
        notes.append(line)
        if !interactive { StandardOutput.writeLine(line) }
    }

    /// Draws the current state.
    func render(second: Int, of duration: Int) async {
        guard interactive || second % 5 == 0 else { return }
        let report = stage.statusReport()
        let stats = await stage.queueStats()
        let stored = await stage.jhe.storedCount()
        let counters = await stage.jhe.counters
        var lines = ["edge-gateway-lab demo  t=\(second)s / \(duration)s", ""]
        lines.append(Self.row("strap", "alias", "bpm", "state", "captured", "accepted", "delivered"))
        for sensor in report?.sensors ?? [] {
            lines.append(
                Self.row(
                    sensor.address, sensor.alias ?? "-", sensor.bpm.map(String.init) ?? "-", sensor.state,
                    String(sensor.samplesReceived), String(sensor.samplesAccepted), String(sensor.samplesDelivered)))
        }
        let uplink = report?.uplink
        lines.append("")
        lines.append("queue: \(stats.map { "\($0.pending) pending, \($0.leased) leased, \($0.dead) dead" } ?? "-")")
        lines.append("JHE: \(stored) stored, \(counters.duplicates) duplicates answered 409, \(counters.refreshes) token refreshes")
        let failing = uplink?.currentError.map { "failing since \(uplink?.failingSince.map { RFC3339.format($0) } ?? "?"): \($0)" }
        lines.append("uplink: last success \(uplink?.lastSuccessAt.map { RFC3339.format($0) } ?? "never"); \(failing ?? "no error now")")
        if interactive {
            StandardOutput.writeLine("\u{1B}[H\u{1B}[2J" + (lines + [""] + notes.suffix(8)).joined(separator: "\n"))
        } else {
            lines.forEach(StandardOutput.writeLine)
        }
    }

    /// `text` after the time of day (`HH:MM:SS`), as timeline lines read.
    static func timestamped(_ text: String) -> String {
        "\(RFC3339.format(Date()).split(separator: "T").last?.prefix(8) ?? "")  \(text)"
    }

    private static func row(_ columns: String...) -> String {
        let widths = [17, 7, 4, 13, 9, 9, 9]
        return zip(columns, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " ")
    }
}
