#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Uplink

/// Everything `gateway.toml` can set, with the defaults a gateway runs with when the file (or a
/// key) is absent. Every key is documented, with its default, in `deploy/gateway.toml.example`;
/// ``ConfigurationSchema`` maps the keys onto these properties and holds the allowed ranges.
public struct GatewayConfiguration: Sendable, Equatable {
    /// Where the state lives when nothing names another place (the .deb's `StateDirectory=`).
    public static let defaultStateDirectory = "/var/lib/edge-gateway"

    /// `[gateway]`: who this box is and where it keeps its state.
    public struct Gateway: Sendable, Equatable {
        /// Shown in status and logs (default: the host name).
        var name = ProcessInfo.processInfo.hostName
        /// Queue database, sensor bindings, credentials, status and upload history.
        public var stateDirectory = GatewayConfiguration.defaultStateDirectory
        /// Hold samples captured while the system clock is not synchronised until it is, then
        /// re-stamp them (a Raspberry Pi has no battery clock). Off only for boxes whose clock is
        /// right without NTP (a real-time clock) but never reports itself synchronised.
        var holdUntilClockSync = true
    }

    /// `[bluetooth]`: how straps are reached.
    struct Bluetooth: Sendable, Equatable {
        /// The BlueZ adapter (`hci0`).
        var adapter = "hci0"
        /// Connections attempted at once on the adapter (controllers fail when asked for many).
        var maxParallelConnects = 2
        /// The cap of the reconnect backoff.
        var reconnectMaxBackoff: Duration = .seconds(60)
        /// A connected strap silent this long is reconnected.
        var stallTimeout: Duration = .seconds(15)
    }

    /// `[queue]`: the durable offline queue's bounds and group commit.
    struct Queue: Sendable, Equatable {
        /// Most records kept; beyond it the oldest pending are evicted (and counted).
        var maxRecords = 10_000_000
        /// Most payload bytes kept; beyond it the oldest pending are evicted.
        var maxBytes: Int64 = 4 << 30
        /// Pending records older than this are evicted.
        var maxAge: Duration = .seconds(90 * 24 * 3600)
        /// Longest wait before appended samples are committed (accepted).
        var commitInterval: Duration = .seconds(1)
        /// Commit as soon as this many samples wait.
        var commitMax = 256
        /// Most samples held in memory while the disk cannot take them.
        var maxInMemory = 100_000
    }

    /// `[uplink]`: delivery to JupyterHealth Exchange.
    public struct Uplink: Sendable, Equatable {
        /// The server `enroll` uses when no link or flag names one; once enrolled, a statement
        /// checked against the enrolment, never a redirect of its tokens (`ServerSettings`).
        public var baseURL: String?
        /// The FHIR base path on the enrolled server (nil: the one recorded at enrolment).
        public var fhirPath: String?
        /// Entries per Bundle.
        var batchSize = 100
        /// How long the uploader gathers samples into one round (unless a full batch waits).
        var interval: Duration = .seconds(10)
        /// `every-sample`, or a window such as `60s`, `5m`.
        var resolution = "every-sample"
        /// Also send RR intervals as `omh:rr-interval:1.0` points.
        var rrIntervals = false
        /// Drop samples whose strap reported no skin contact instead of uploading them.
        var dropNoContact = true
        /// Extra CA certificates (PEM) trusted for the server, besides the system store.
        public var caFile: String?
        /// Deadline for one HTTP request.
        var timeout: Duration = .seconds(60)
    }

    /// `[metrics]`: the Prometheus endpoint.
    struct Metrics: Sendable, Equatable {
        /// `host:port` to serve `/metrics` on; empty means off.
        var listen = ""
    }

    /// `[gateway]`: the box's name, its state directory (which `--state-dir` overrides) and the
    /// hold on samples until the clock is synchronised.
    public var gateway = Gateway()
    var bluetooth = Bluetooth()
    var queue = Queue()
    /// `[uplink]`: which JHE server to use, and how samples are batched, shaped and sent to it.
    public var uplink = Uplink()
    var metrics = Metrics()
}

extension GatewayConfiguration.Uplink {
    /// What uploads, `status` and `doctor` make of `base_url` and `fhir_path`.
    var serverSettings: ServerSettings { ServerSettings(baseURL: baseURL, fhirPath: fhirPath) }
}
