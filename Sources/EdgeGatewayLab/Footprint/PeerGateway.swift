import BlueZSimulator
import Foundation
import GATTHeartRate

/// A peer gateway to measure beside `edge-gateway run`: a directory holding `peer_gateway.py`
/// (one strap per process, as the hand-written Python gateway is) and `sink.py` (the FHIR batch
/// sink it uploads to), run by `python`. One peer process per strap, each with its own SQLite
/// file, all on the stage's bus: what a user of that script would run for a fleet.
struct PeerGateway: Sendable {
    let directory: String
    let python: String

    /// The peer's processes on a stage, once every strap notifies.
    struct Running {
        let sink: ChildProcess
        let peers: [ChildProcess]
        let logs: [String]
        let sinkOutput: String
        var pids: [Int32] { peers.map(\.pid) }

        /// Ends every process of the peer at once (after a failure).
        func kill() {
            for child in peers + [sink] where child.exitStatusIfEnded() == nil { child.signal(SIGKILL) }
        }
    }

    /// Starts the sink and one peer per strap of `stage`, and waits until each peer says it
    /// receives notifications.
    func start(on stage: DemoStage) async throws -> Running {
        let portFile = stage.directory + "/sink.port"
        let sinkOutput = stage.directory + "/sink.out"
        let sink = try ChildProcess(
            python, [directory + "/sink.py", "--port-file", portFile], outputPath: sinkOutput, errorPath: sinkOutput)
        let port: Int
        do {
            port = try await Self.poll("the sink's port file", within: .seconds(30)) {
                (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
        } catch {
            sink.signal(SIGKILL)
            throw error
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = stage.bus.address
        var peers: [ChildProcess] = []
        var logs: [String] = []
        for (index, strap) in stage.straps.enumerated() {
            let log = stage.directory + "/peer-\(index).log"
            peers.append(
                try ChildProcess(
                    python,
                    [
                        directory + "/peer_gateway.py", "--sink", "http://127.0.0.1:\(port)/FHIR/R5/",
                        "--db", stage.directory + "/peer-\(index).db", "--address", strap.description,
                    ],
                    outputPath: log, errorPath: log, environment: environment))
            logs.append(log)
        }
        let running = Running(sink: sink, peers: peers, logs: logs, sinkOutput: sinkOutput)
        do {
            _ = try await Self.poll("every peer notifying (see \(stage.directory)/peer-*.log)", within: .seconds(180)) {
                logs.allSatisfy { ((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "").contains("notifying from") } ? true : nil
            }
        } catch {
            running.kill()
            throw error
        }
        return running
    }

    /// Stops the straps' link, then each peer (its last commit and upload) and the sink, and
    /// checks that the sink holds every sample the peers received, each once.
    func stop(_ running: Running, on stage: DemoStage) async throws -> (exactlyOnce: Bool, received: Int) {
        await stage.silenceStraps()
        var received = 0
        for (peer, log) in zip(running.peers, running.logs) {
            peer.signal(SIGTERM)
            guard await peer.exitStatus(within: .seconds(90)) != nil else {
                peer.signal(SIGKILL)
                throw DemoError("a peer did not stop within 90 s (see \(log))")
            }
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard let exit = text.split(separator: "\n").last(where: { $0.contains(" EXIT ") }) else {
                throw DemoError("a peer stopped without its EXIT line (see \(log))")
            }
            received += Self.count("received", in: exit)
        }
        running.sink.signal(SIGTERM)
        _ = await running.sink.exitStatus(within: .seconds(30))
        let summary =
            ((try? String(contentsOfFile: running.sinkOutput, encoding: .utf8)) ?? "")
            .split(separator: "\n").last(where: { $0.hasPrefix("SINK ") }).map(String.init) ?? ""
        let (entries, unique, invalid) = (Self.count("entries", in: summary), Self.count("unique", in: summary), Self.count("invalid", in: summary))
        return (entries == unique && invalid == 0 && unique == received && received > 0, received)
    }

    /// The number after `name=` in a `key=value` line; 0 when absent.
    private static func count(_ name: String, in line: some StringProtocol) -> Int {
        line.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
    }

    private static func poll<T>(_ what: String, within timeout: Duration, _ probe: () -> T?) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = probe() { return value }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw DemoError("waited \(timeout) for \(what)")
    }
}
