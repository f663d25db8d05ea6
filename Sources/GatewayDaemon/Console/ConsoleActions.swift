import GatewayOperations
import GatewayPipeline
import OfflineQueue
import OutputFormats
import Synchronization

/// What the console's buttons do, in the daemon's own process, as the CLI commands of the same
/// names do beside it: move dead letters back to pending (`queue retry-dead`), release the
/// samples held for the clock (`queue release-held`), run the `doctor` checks. Each is a POST
/// that carries the CSRF token (the routes check it), is logged with the client's address,
/// and answers JSON the page shows. Each runs once at a time: a second press while it runs
/// (another page, a doctor waiting on the network) is told so (409) rather than queued.
struct ConsoleActions: Sendable {
    /// Moves every dead letter back to pending; returns how many moved.
    let retryDead: @Sendable () async throws -> Int
    /// Releases the samples held for the clock.
    let releaseHeld: @Sendable () async throws -> HeldSamples.Release
    /// The doctor's findings.
    let doctor: @Sendable () async -> [DoctorCheck]

    /// The actions running now.
    private let running = Running()

    /// The actions' names, as the paths `/api/actions/NAME` carry them.
    static let names = ["retry-dead", "release-held", "doctor"]

    /// Runs `name`; the JSON reply's body, or nil for an unknown action.
    func run(_ name: String) async -> (status: Int, json: [UInt8], summary: String)? {
        guard Self.names.contains(name) else { return nil }
        guard running.start(name) else {
            return (409, Self.error("\(name) is already running; wait for its result"), "refused: already running")
        }
        defer { running.end(name) }
        do {
            switch name {
            case "retry-dead":
                let moved = try await retryDead()
                return (200, Array("{\"moved\":\(moved)}".utf8), "moved \(moved) dead letter(s) back to pending")
            case "release-held":
                let released = try await releaseHeld()
                let json =
                    "{\"released\":\(released.total),\"repaired\":\(released.repaired),\"unrepairable\":\(released.unrepairable),\"undecodable\":\(released.undecodable)}"
                return (200, Array(json.utf8), "released \(released.total) held sample(s)")
            case "doctor":
                let checks = await doctor()
                let failed = checks.filter { !$0.passed }.count
                let json = "{\"checks\":[\(checks.map(\.jsonLine).joined(separator: ","))],\"passed\":\(checks.count - failed),\"failed\":\(failed)}"
                return (200, Array(json.utf8), failed == 0 ? "all \(checks.count) checks passed" : "\(failed) of \(checks.count) checks failed")
            default:
                return nil
            }
        } catch {
            return (500, Self.error("\(error)"), "failed: \(error)")
        }
    }

    /// `{"error":"…"}`.
    private static func error(_ text: String) -> [UInt8] {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.key("error")
        json.string(text)
        json.endObject()
        return json.bytes
    }
}

/// The names of the actions under way.
private final class Running: Sendable {
    private let names = Mutex<Set<String>>([])

    /// Whether `name` was not running (and now is).
    func start(_ name: String) -> Bool {
        names.withLock { $0.insert(name).inserted }
    }

    func end(_ name: String) {
        _ = names.withLock { $0.remove(name) }
    }
}
