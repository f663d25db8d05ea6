import Foundation
import OutputFormats

/// One measured run of a scenario: a fresh stage (private bus, simulated straps, simulated JHE,
/// an enrolled state directory), the release daemon started with its default timings, a
/// warm-up, then a window of once-a-second readings of the daemon process alone. Afterwards the
/// straps go quiet, the queue drains and the run checks that JHE stored every accepted sample
/// exactly once, so a cheaper daemon cannot pass by dropping work.
struct FootprintRun: Sendable {
    let scenario: FootprintScenario
    /// What was measured: `edge-gateway`, or `peer` (a ``PeerGateway``).
    let subject: String
    let seconds: Double
    /// Notifications delivered to the daemon inside the window.
    let samples: Int
    /// Notifications the simulated bluetoothd dropped inside the window because the daemon's
    /// `AcquireNotify` socket was full (bluetoothd drops them too): a daemon that reads too
    /// late shows here, not as a cheaper sample.
    let dropped: Int
    let window: FootprintWindow
    let exactlyOnce: Bool
    let accepted: Int

    /// Measures `scenario` once, with the daemon `gateway`, over a window of `seconds` after `warmUp` seconds.
    static func measure(_ scenario: FootprintScenario, gateway: String, seconds: Int, warmUp: Int) async throws -> FootprintRun {
        let stage = try await DemoStage(
            sensors: scenario.straps, interval: .milliseconds(scenario.intervalMilliseconds ?? 1000), tokenLifetime: 3600,
            acquireNotify: scenario.acquireNotify, adapters: scenario.adapters, gateway: gateway)
        do {
            let run = try await measure(scenario, on: stage, seconds: seconds, warmUp: warmUp)
            await stage.tearDown(keep: false)
            return run
        } catch {
            await stage.tearDown(keep: true)
            throw DemoError("\(scenario.name): \(error); files kept in \(stage.directory)")
        }
    }

    private static func measure(_ scenario: FootprintScenario, on stage: DemoStage, seconds: Int, warmUp: Int) async throws -> FootprintRun {
        try await stage.enrollAndBind()
        if !scenario.notifies {
            for strap in stage.straps { await stage.bluetoothd.setInRange(strap, false) }
        }
        try stage.startDaemon(uplinkInterval: nil)
        if scenario.notifies {
            let deadline = ContinuousClock.now + .seconds(120)
            while stage.acceptedSamples() == 0 {
                guard ContinuousClock.now < deadline else { throw DemoError("the daemon accepted no sample within 120 s") }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        try await Task.sleep(for: .seconds(warmUp))
        guard let pid = stage.daemon?.pid else { throw DemoError("the daemon is gone") }
        let (window, samples, dropped, elapsed) = try await observe([pid], on: stage, seconds: seconds)

        await stage.silenceStraps()
        let drained = await stage.waitForDrain(within: .seconds(300)) {}
        let exit = try await stage.stopDaemon()
        let verdict = await DemoVerdict(stage: stage, drained: drained, daemonExit: exit, outageSeconds: 0, cost: nil, drain: nil)
        return FootprintRun(
            scenario: scenario, subject: "edge-gateway", seconds: elapsed, samples: samples, dropped: dropped, window: window,
            exactlyOnce: verdict.exactlyOnce, accepted: verdict.accepted)
    }

    /// Measures `peer` under `scenario` once, on a stage of its own, as `measure` does the daemon:
    /// every strap notifying, a warm-up, the window; then the peer stops and its sink must hold
    /// every sample the peer received, each once. Where the straps offer `AcquireNotify` the peer
    /// chooses as it would on a real box (bleak takes `StartNotify` unless told otherwise).
    static func measure(_ scenario: FootprintScenario, peer: PeerGateway, seconds: Int, warmUp: Int) async throws -> FootprintRun {
        guard scenario.notifies else { throw DemoError("\(scenario.name): the peer gateway is measured only where straps notify") }
        let stage = try await DemoStage(
            sensors: scenario.straps, interval: .milliseconds(scenario.intervalMilliseconds ?? 1000), tokenLifetime: 3600,
            acquireNotify: scenario.acquireNotify, adapters: scenario.adapters)
        var started: PeerGateway.Running?
        do {
            let running = try await peer.start(on: stage)
            started = running
            try await Task.sleep(for: .seconds(warmUp))
            let (window, samples, dropped, elapsed) = try await observe(running.pids, on: stage, seconds: seconds)
            let verdict = try await peer.stop(running, on: stage)
            await stage.tearDown(keep: false)
            return FootprintRun(
                scenario: scenario, subject: "peer", seconds: elapsed, samples: samples, dropped: dropped, window: window,
                exactlyOnce: verdict.exactlyOnce, accepted: verdict.received)
        } catch {
            started?.kill()
            await stage.tearDown(keep: true)
            throw DemoError("\(scenario.name), peer: \(error); files kept in \(stage.directory)")
        }
    }

    /// Reads the counters of `pids` once a second for `seconds`: the window, the notifications
    /// the straps delivered in it and those dropped, and its length in seconds.
    private static func observe(_ pids: [Int32], on stage: DemoStage, seconds: Int) async throws -> (FootprintWindow, Int, Int, Double) {
        guard let start = ProcessCounters(pids: pids) else { throw DemoError("the measured process is gone") }
        let deliveredAtStart = await stage.notificationsDelivered()
        let droppedAtStart = await stage.notificationsDropped()
        let began = ContinuousClock.now
        var window = FootprintWindow(start: start)
        for _ in 0 ..< seconds {
            try await Task.sleep(for: .seconds(1))
            guard let reading = ProcessCounters(pids: pids) else { throw DemoError("the measured process ended during the window") }
            window.add(reading)
        }
        let elapsed = began.duration(to: .now)
        let samples = await stage.notificationsDelivered() - deliveredAtStart
        let dropped = await stage.notificationsDropped() - droppedAtStart
        return (window, samples, dropped, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// CPU per notification, µs; nil with no samples.
    var cpuMicrosecondsPerSample: Double? {
        samples > 0 ? Double(window.cpuNanoseconds) / 1e3 / Double(samples) : nil
    }

    /// CPU per second of wall time, µs.
    var cpuMicrosecondsPerSecond: Double { Double(window.cpuNanoseconds) / 1e3 / seconds }

    /// Times any thread of the daemon was put on a CPU, per second.
    var wakeUpsPerSecond: Double { Double(window.runs) / seconds }

    /// Bytes written to storage per notification; nil with no samples.
    var bytesWrittenPerSample: Double? {
        samples > 0 ? Double(window.writeBytes) / Double(samples) : nil
    }

    /// Bytes written to storage per second.
    var bytesWrittenPerSecond: Double { Double(window.writeBytes) / seconds }

    /// Scenario and subject: what runs of the same measurement share.
    var key: String { scenario.name + "/" + subject }

    /// The run as one JSON object, for `footprint --records` and `scripts/bench-peer`'s summary,
    /// with the machine's load averages when it ended.
    var record: String {
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
        var json = JSONWriter()
        func number(_ name: StaticString, _ value: Double?) {
            json.key(name)
            if let value, (try? json.number(value)) != nil { return }
            json.null()
        }
        json.beginObject()
        json.key("scenario")
        json.string(scenario.name)
        json.key("subject")
        json.string(subject)
        number("seconds", seconds)
        json.key("samples")
        json.integer(samples)
        json.key("dropped")
        json.integer(dropped)
        number("cpu_us_per_sample", cpuMicrosecondsPerSample)
        number("cpu_us_per_s", cpuMicrosecondsPerSecond)
        number("rss_mb", Double(window.medianResidentBytes) / 1e6)
        number("private_dirty_mb", Double(window.medianPrivateDirtyBytes) / 1e6)
        number("bytes_per_sample", bytesWrittenPerSample)
        number("bytes_per_s", bytesWrittenPerSecond)
        number("wakeups_per_s", wakeUpsPerSecond)
        json.key("threads")
        json.integer(window.threadCount)
        json.key("exactly_once")
        json.boolean(exactlyOnce)
        json.key("load")
        json.string(load)
        json.endObject()
        return json.text
    }
}
