import ArgumentParser
import Foundation

/// `edge-gateway demo`: the gateway's whole job in one command on simulated parts, ending with
/// a verdict a newcomer can trust: every accepted sample delivered exactly once.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the real daemon between simulated straps and a simulated JHE, with an outage.",
        discussion: """
            Starts a private D-Bus bus with a simulated bluetoothd and straps, a JupyterHealth \
            Exchange simulator with short-lived tokens, enrols the gateway, binds the straps and \
            runs `edge-gateway run`. A third of the way through it cuts the network for a while: \
            watch the backlog grow, then drain, and the token being refreshed. At the end the \
            straps go quiet, the backlog drains, the daemon stops, and the demo checks with the \
            simulator that every accepted sample was stored exactly once (exit 0), or says what \
            is missing (exit 1). Needs `dbus-daemon` (Debian package dbus-daemon).

            Example:
              edge-gateway demo --sensors 3 --duration 60
            """
    )

    @Option(help: "How many straps to simulate.")
    var sensors = 3

    @Option(help: "Seconds of strap data (the drain at the end adds a little).")
    var duration = 60

    @Option(help: "Milliseconds between a strap's notifications.")
    var intervalMs = 1000

    @Option(help: "Seconds the network is cut, a third of the way in (default: a quarter of the duration, at least 10; 0: no outage).")
    var outage: Int?

    @Flag(help: "Keep the demo's state directory and daemon log afterwards.")
    var keep = false

    func validate() throws {
        guard (1...50).contains(sensors) else { throw ValidationError("--sensors must be between 1 and 50.") }
        guard (20...3600).contains(duration) else { throw ValidationError("--duration must be between 20 and 3600 seconds.") }
        guard (50...10_000).contains(intervalMs) else { throw ValidationError("--interval-ms must be between 50 and 10000.") }
        if let outage, !(0...duration / 2).contains(outage) {
            throw ValidationError("--outage must be between 0 and half the duration.")
        }
    }

    func run() async throws {
        let stage: DemoStage
        do {
            stage = try await DemoStage(sensors: sensors, interval: .milliseconds(intervalMs), tokenLifetime: 20)
        } catch {
            StandardError.writeLine("edge-gateway demo: cannot start the simulators: \(error)")
            throw ExitStatus.unavailable
        }
        let dashboard = DemoDashboard(stage: stage, interactive: isatty(STDOUT_FILENO) == 1)
        let verdict: DemoVerdict
        do {
            verdict = try await play(on: stage, dashboard: dashboard)
        } catch {
            await stage.tearDown(keep: true)
            StandardError.writeLine("edge-gateway demo: \(error); files kept in \(stage.directory)")
            throw ExitCode.failure
        }
        await stage.tearDown(keep: keep)
        StandardOutput.writeLine(verdict.summary)
        if keep { StandardOutput.writeLine("state and daemon log kept in \(stage.directory)") }
        if !verdict.exactlyOnce { throw ExitCode.failure }
    }

    private func play(on stage: DemoStage, dashboard: DemoDashboard) async throws -> DemoVerdict {
        await dashboard.note("JHE simulator at \(await stage.jhe.baseURL); access tokens live 20 s")
        try await stage.enrollAndBind()
        await dashboard.note("enrolled; \(sensors) straps bound to patient 40001")
        try stage.startDaemon()
        await dashboard.note("daemon started: edge-gateway run")
        let cutAt = duration / 3
        let outageSeconds = outage ?? max(10, duration / 4)
        let restoreAt = cutAt + outageSeconds
        let warmUp = 5
        var measured: (start: ProcessUsage, accepted: Int)?
        var usage: DemoVerdict.DaemonCost?
        for second in 1...duration {
            try await Task.sleep(for: .seconds(1))
            if second == warmUp, let start = stage.daemonUsage() {
                measured = (start, stage.statusReport()?.sensors.reduce(0) { $0 + $1.samplesAccepted } ?? 0)
            }
            if second == duration, let measured, let end = stage.daemonUsage() {
                let accepted = (stage.statusReport()?.sensors.reduce(0) { $0 + $1.samplesAccepted } ?? 0) - measured.accepted
                usage = DemoVerdict.DaemonCost(
                    cpuSeconds: end.cpuSeconds - measured.start.cpuSeconds, seconds: duration - warmUp, samples: accepted,
                    residentBytes: end.residentBytes, peakResidentBytes: end.peakResidentBytes)
            }
            if outageSeconds > 0 && second == cutAt {
                await stage.jhe.setReachable(false)
                await dashboard.note("network cut: uploads fail, samples pile up in the queue")
            }
            if second == restoreAt {
                await stage.jhe.setReachable(true)
                await dashboard.note("network back: the backlog drains, oldest first")
            }
            await dashboard.render(second: second, of: duration)
        }
        await stage.bluetoothd.setAdapterPowered(false)
        await dashboard.note("straps quiet (adapter off); waiting for the queue to drain")
        let drained = await waitForDrain(stage, dashboard: dashboard)
        let exit = try await stage.stopDaemon()
        await dashboard.note("daemon stopped with SIGTERM, exit status \(exit)")
        return await DemoVerdict(stage: stage, drained: drained, daemonExit: exit, outageSeconds: outageSeconds, cost: usage)
    }

    /// Waits (up to two minutes) until the straps have gone quiet (two successive status
    /// reports with the same count of received samples, all of them accepted) and the queue has
    /// nothing left that JHE does not have.
    private func waitForDrain(_ stage: DemoStage, dashboard: DemoDashboard) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        var second = duration
        var previous: (written: Date, received: Int)?
        while ContinuousClock.now < deadline {
            if let report = stage.statusReport(), let stats = await stage.queueStats() {
                let received = report.sensors.reduce(0) { $0 + $1.samplesReceived }
                let accepted = report.sensors.reduce(0) { $0 + $1.samplesAccepted }
                let quiet = previous.map { $0.written < report.writtenAt && $0.received == received } ?? false
                if quiet, received == accepted, stats.pending + stats.leased == 0, await stage.jhe.storedCount() >= accepted {
                    return true
                }
                if previous?.written != report.writtenAt { previous = (report.writtenAt, received) }
            }
            try? await Task.sleep(for: .seconds(1))
            second += 1
            await dashboard.render(second: second, of: duration)
        }
        return false
    }
}
