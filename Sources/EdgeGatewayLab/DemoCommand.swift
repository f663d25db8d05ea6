import ArgumentParser
import Foundation
import GatewayCommandLine
import OutputFormats

/// `edge-gateway-lab demo`: the gateway's whole job in one command on simulated parts, ending with
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
              edge-gateway-lab demo --sensors 3 --duration 60
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

    @Option(help: "Seconds a JHE access token lives (short, so the demo shows refreshes; benchmarks use a realistic one).")
    var tokenLifetime = 20

    @Flag(help: "Bind the straps with `edge-gateway pair` (connect, check the service, bond, trust), as a technician does, instead of writing the bindings.")
    var pair = false

    @Flag(
        help: "Kill the daemon with SIGKILL halfway through the outage (or the run) and start it again: what it had accepted must still reach JHE exactly once."
    )
    var crash = false

    @Option(help: "The edge-gateway to run (default: the one next to this program), e.g. a script that runs an arm64 build under qemu.")
    var gateway: String?

    @Flag(help: "Keep the demo's state directory and daemon log afterwards.")
    var keep = false

    func validate() throws {
        guard (1 ... 50).contains(sensors) else { throw ValidationError("--sensors must be between 1 and 50.") }
        guard (20 ... 3600).contains(duration) else { throw ValidationError("--duration must be between 20 and 3600 seconds.") }
        guard (50 ... 10_000).contains(intervalMs) else { throw ValidationError("--interval-ms must be between 50 and 10000.") }
        guard (5 ... 1_209_600).contains(tokenLifetime) else { throw ValidationError("--token-lifetime must be between 5 and 1209600 seconds.") }
        if let outage, !(0 ... duration / 2).contains(outage) {
            throw ValidationError("--outage must be between 0 and half the duration.")
        }
    }

    func run() async throws {
        let stage: DemoStage
        do {
            stage = try await DemoStage(
                sensors: sensors, interval: .milliseconds(intervalMs), tokenLifetime: tokenLifetime, gateway: gateway ?? DemoStage.siblingGateway)
        } catch {
            StandardError.writeLine("edge-gateway-lab demo: cannot start the simulators: \(error)")
            throw ExitStatus.unavailable
        }
        let dashboard = DemoDashboard(stage: stage, interactive: isatty(STDOUT_FILENO) == 1)
        let verdict: DemoVerdict
        do {
            verdict = try await play(on: stage, dashboard: dashboard)
        } catch {
            await stage.tearDown(keep: true)
            StandardError.writeLine("edge-gateway-lab demo: \(error); files kept in \(stage.directory)")
            throw ExitStatus.negative
        }
        await stage.tearDown(keep: keep)
        StandardOutput.writeLine(verdict.summary)
        if keep { StandardOutput.writeLine("state and daemon log kept in \(stage.directory)") }
        if !verdict.exactlyOnce { throw ExitStatus.negative }
    }

    private func play(on stage: DemoStage, dashboard: DemoDashboard) async throws -> DemoVerdict {
        await dashboard.note("JHE simulator at \(await stage.jhe.baseURL); access tokens live \(tokenLifetime) s")
        try await stage.enrollAndBind(pairing: pair)
        await dashboard.note("enrolled; \(sensors) straps \(pair ? "paired and " : "")bound to patient 40001")
        try stage.startDaemon()
        await dashboard.note("daemon started: edge-gateway run")
        let cutAt = duration / 3
        let outageSeconds = outage ?? max(10, duration / 4)
        let restoreAt = cutAt + outageSeconds
        let crashAt = crash ? (outageSeconds > 0 ? cutAt + outageSeconds / 2 : duration / 2) : nil
        var crashed: DemoVerdict.Crash?
        let warmUp = 5
        var costStart: DemoVerdict.DaemonCost.Mark?
        var cost: DemoVerdict.DaemonCost?
        var drain: Task<BacklogDrain?, Never>?
        for second in 1 ... duration {
            try await Task.sleep(for: .seconds(1))
            if second == warmUp { costStart = DemoVerdict.DaemonCost.Mark(stage: stage) }
            // Across a crash the two marks would be two processes': no cost then.
            if second == duration, crashAt == nil, let costStart, let end = DemoVerdict.DaemonCost.Mark(stage: stage) {
                cost = DemoVerdict.DaemonCost(from: costStart, to: end)
            }
            if outageSeconds > 0 && second == cutAt {
                await stage.jhe.setReachable(false)
                await dashboard.note("network cut: uploads fail, samples pile up in the queue")
            }
            if second == crashAt {
                crashed = try await stage.crashAndRestartDaemon()
                await dashboard.note("daemon killed with SIGKILL and started again; \(crashed?.accepted ?? 0) samples it had accepted survive")
            }
            if outageSeconds > 0 && second == restoreAt {
                let start = await BacklogDrain.Start(stage: stage)
                await stage.jhe.setReachable(true)
                drain = start.map { start in Task { await start.watch(stage, within: .seconds(600)) } }
                await dashboard.note("network back: the backlog of \(start?.backlog ?? 0) drains, oldest first")
            }
            await dashboard.render(second: second, of: duration)
        }
        await stage.silenceStraps()
        await dashboard.note("straps quiet (adapter off); waiting for the queue to drain")
        var second = duration
        let drained = await stage.waitForDrain(within: .seconds(120)) {
            second += 1
            await dashboard.render(second: second, of: duration)
        }
        let exit = try await stage.stopDaemon()
        await dashboard.note("daemon stopped with SIGTERM, exit status \(exit)")
        // Drained means JHE holds the whole backlog, so the watch ends at its next look.
        if !drained { drain?.cancel() }
        return await DemoVerdict(
            stage: stage, drained: drained, daemonExit: exit, outageSeconds: outageSeconds, cost: cost, drain: await drain?.value,
            crash: crashed)
    }
}
