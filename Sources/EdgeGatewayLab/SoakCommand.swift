import ArgumentParser
import Foundation
import GatewayCommandLine
import OutputFormats

/// `edge-gateway-lab soak`: the demo's stage for an hour or more, with the field's faults on a
/// schedule, to show that the daemon's memory and open files stay flat and that nothing is lost.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run the real daemon for a long time under faults; report RSS and open files over time, and loss.",
        discussion: """
            The demo's stage (private bus, simulated bluetoothd and straps, JHE simulator, the real \
            `edge-gateway run`) with: a link drop every --drop-every seconds (one strap at a time, \
            in turn), a network outage a third of the way in, and a bluetoothd restart two thirds \
            of the way in. Prints the daemon's anonymous memory (RssAnon), RSS, peak RSS and open \
            file descriptors every --sample-every seconds; at the end the straps go quiet, the \
            backlog drains, and the soak checks that anonymous memory and descriptors stayed flat \
            (last quarter against the first quarter after warm-up; RSS is not judged, its file \
            pages follow the code that runs) and that every accepted sample was stored exactly \
            once. Exit 0 when both hold, 1 otherwise.

            Example (what `make soak` runs):
              edge-gateway-lab soak --sensors 10 --duration 3600
            """
    )

    @Option(help: "How many straps to simulate.")
    var sensors = 10

    @Option(help: "Seconds of strap data.")
    var duration = 3600

    @Option(help: "Seconds between readings of the daemon's RSS and open files.")
    var sampleEvery = 30

    @Option(help: "Seconds between link drops.")
    var dropEvery = 120

    @Option(help: "Seconds the network is cut, a third of the way in (default: a tenth of the duration, at most 300).")
    var outage: Int?

    @Option(help: "Seconds a JHE access token lives.")
    var tokenLifetime = 3600

    @Flag(help: "Keep the state directory and daemon log afterwards.")
    var keep = false

    func validate() throws {
        guard (1 ... 50).contains(sensors) else { throw ValidationError("--sensors must be between 1 and 50.") }
        guard (60 ... 604_800).contains(duration) else { throw ValidationError("--duration must be between 60 and 604800 seconds.") }
        guard (1 ... 3600).contains(sampleEvery), (5 ... 86_400).contains(dropEvery) else {
            throw ValidationError("--sample-every must be 1–3600 and --drop-every 5–86400 seconds.")
        }
        guard (5 ... 1_209_600).contains(tokenLifetime) else { throw ValidationError("--token-lifetime must be between 5 and 1209600 seconds.") }
        if let outage, !(0 ... duration / 2).contains(outage) { throw ValidationError("--outage must be between 0 and half the duration.") }
    }

    func run() async throws {
        let stage: DemoStage
        do {
            stage = try await DemoStage(sensors: sensors, interval: .seconds(1), tokenLifetime: tokenLifetime)
        } catch {
            StandardError.writeLine("edge-gateway-lab soak: cannot start the simulators: \(error)")
            throw ExitStatus.unavailable
        }
        let outcome: (verdict: DemoVerdict, series: SoakSeries)
        do {
            outcome = try await soak(on: stage)
        } catch {
            await stage.tearDown(keep: true)
            StandardError.writeLine("edge-gateway-lab soak: \(error); files kept in \(stage.directory)")
            throw ExitStatus.negative
        }
        await stage.tearDown(keep: keep)
        StandardOutput.writeLine(outcome.series.summary)
        StandardOutput.writeLine(outcome.verdict.summary)
        if keep { StandardOutput.writeLine("state and daemon log kept in \(stage.directory)") }
        if !(outcome.verdict.exactlyOnce && outcome.series.flat) { throw ExitStatus.negative }
    }

    private func soak(on stage: DemoStage) async throws -> (DemoVerdict, SoakSeries) {
        try await stage.enrollAndBind()
        try stage.startDaemon()
        let outageSeconds = outage ?? min(300, duration / 10)
        let (cutAt, restartAt) = (duration / 3, duration * 2 / 3)
        let warmUp = min(60, duration / 10)
        note(
            "\(sensors) straps at 1 Hz for \(duration) s; link drop every \(dropEvery) s; outage of \(outageSeconds) s at \(cutAt) s; bluetoothd restart at \(restartAt) s; readings every \(sampleEvery) s after a \(warmUp) s warm-up"
        )
        var series = SoakSeries(warmUp: warmUp)
        var costStart: DemoVerdict.DaemonCost.Mark?
        var cost: DemoVerdict.DaemonCost?
        for second in 1 ... duration {
            try await Task.sleep(for: .seconds(1))
            if second == warmUp { costStart = DemoVerdict.DaemonCost.Mark(stage: stage) }
            if second == duration, let costStart, let end = DemoVerdict.DaemonCost.Mark(stage: stage) {
                cost = DemoVerdict.DaemonCost(from: costStart, to: end)
            }
            try await inject(second: second, stage: stage, outageSeconds: outageSeconds, cutAt: cutAt, restartAt: restartAt)
            if second % sampleEvery == 0 {
                guard let usage = stage.daemonUsage() else { throw DemoError("the daemon is gone (see \(stage.daemonLog))") }
                let point = SoakSeries.Point(second: second, usage: usage)
                series.append(point)
                StandardOutput.writeLine(
                    SoakSeries.line(
                        point, backlog: await stage.backlog(), accepted: stage.acceptedSamples(), stored: await stage.jhe.storedCount()))
            }
        }
        await stage.silenceStraps()
        note("straps quiet (adapter off); waiting for the queue to drain")
        let drained = await stage.waitForDrain(within: .seconds(600)) {}
        let exit = try await stage.stopDaemon()
        note("daemon stopped with SIGTERM, exit status \(exit)")
        let verdict = await DemoVerdict(stage: stage, drained: drained, daemonExit: exit, outageSeconds: outageSeconds, cost: cost, drain: nil)
        return (verdict, series)
    }

    /// The faults due at `second`.
    private func inject(second: Int, stage: DemoStage, outageSeconds: Int, cutAt: Int, restartAt: Int) async throws {
        if second % dropEvery == 0 {
            let strap = stage.straps[(second / dropEvery) % stage.straps.count]
            await stage.bluetoothd.dropLink(strap)
            note("link dropped: \(strap)")
        }
        if outageSeconds > 0, second == cutAt {
            await stage.jhe.setReachable(false)
            note("network cut for \(outageSeconds) s")
        }
        if outageSeconds > 0, second == cutAt + outageSeconds {
            await stage.jhe.setReachable(true)
            note("network back")
        }
        if second == restartAt {
            try await stage.bluetoothd.restart()
            note("bluetoothd restarted")
        }
    }

    private func note(_ text: String) {
        StandardOutput.writeLine(DemoDashboard.timestamped(text))
    }
}
