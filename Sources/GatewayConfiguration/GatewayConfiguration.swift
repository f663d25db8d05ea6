#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Uplink

/// Everything `gateway.toml` can set, with the defaults a gateway runs with when the file (or a
/// key) is absent. Every key is documented, with its default, in `deploy/gateway.toml.example`;
/// ``ConfigurationSchema`` maps the keys onto these properties and holds the allowed ranges.
package struct GatewayConfiguration: Sendable, Equatable {
    /// Where the state lives when nothing names another place (the .deb's `StateDirectory=`).
    package static let defaultStateDirectory = "/var/lib/edge-gateway"

    /// `[gateway]`: who this box is and where it keeps its state.
    package struct Gateway: Sendable, Equatable {
        /// Shown in status and logs (default: the host name).
        package var name = ProcessInfo.processInfo.hostName
        /// Queue database, sensor bindings, credentials, status and upload history.
        package var stateDirectory = GatewayConfiguration.defaultStateDirectory
        /// Hold samples captured while the system clock is not synchronised until it is, then
        /// re-stamp them (a Raspberry Pi has no battery clock). Off only for boxes whose clock is
        /// right without NTP (a real-time clock) but never reports itself synchronised.
        package var holdUntilClockSync = true
    }

    /// `[bluetooth]`: how straps are reached.
    package struct Bluetooth: Sendable, Equatable {
        /// `all`, or the adapters to use (`hci0, hci1`).
        package var adapters = "all"
        /// The connections an adapter may hold (five: what most USB dongles manage).
        package var maxConnections = 5
        /// Per-adapter exceptions to `maxConnections` (`hci0=3, hci1=7`), or empty.
        package var maxConnectionsByAdapter = ""
        /// Connections attempted at once on each adapter (controllers fail when asked for many).
        package var maxParallelConnects = 2
        /// Per-adapter exceptions to `maxParallelConnects` (`hci0=1, hci1=4`), or empty.
        package var maxParallelConnectsByAdapter = ""
        /// The cap of the reconnect backoff.
        package var reconnectMaxBackoff: Duration = .seconds(60)
        /// A connected strap silent this long is reconnected.
        package var stallTimeout: Duration = .seconds(15)
        /// The single adapter of versions before `adapters`: used alone when `adapters` is `all`.
        package var adapter: String?

        /// The adapters to use by name, nil for every adapter of the box.
        package var adapterNames: [String]? {
            guard adapters != "all" else { return adapter.map { [$0] } }
            return ValueChecks.list(adapters)
        }

        /// `maxConnectionsByAdapter` read: adapter name to its connection limit.
        package var connectionLimits: [String: Int] { Self.counts(maxConnectionsByAdapter) }
        /// `maxParallelConnectsByAdapter` read: adapter name to its limit of connects at once.
        package var parallelConnectLimits: [String: Int] { Self.counts(maxParallelConnectsByAdapter) }

        private static func counts(_ byAdapter: String) -> [String: Int] {
            Dictionary(ValueChecks.list(byAdapter).compactMap(ValueChecks.pair), uniquingKeysWith: { $1 })
        }
    }

    /// `[queue]`: the durable offline queue's bounds and group commit.
    package struct Queue: Sendable, Equatable {
        /// Most records kept; beyond it the oldest pending are evicted (and counted).
        package var maxRecords = 10_000_000
        /// Most payload bytes kept; beyond it the oldest pending are evicted.
        package var maxBytes: Int64 = 4 << 30
        /// Pending records older than this are evicted.
        package var maxAge: Duration = .seconds(90 * 24 * 3600)
        /// Longest wait before appended samples are committed (accepted).
        package var commitInterval: Duration = .seconds(1)
        /// Commit as soon as this many samples wait.
        package var commitMax = 256
        /// Most samples held in memory while the disk cannot take them.
        package var maxInMemory = 100_000
    }

    /// `[uplink]`: delivery to JupyterHealth Exchange.
    package struct Uplink: Sendable, Equatable {
        /// The server `enroll` uses when no link or flag names one; once enrolled, a statement
        /// checked against the enrolment, never a redirect of its tokens (`ServerSettings`).
        package var baseURL: String?
        /// The FHIR base path on the enrolled server (nil: the one recorded at enrolment).
        package var fhirPath: String?
        /// Entries per Bundle.
        package var batchSize = 100
        /// How long the uploader gathers samples into one round (unless a full batch waits).
        package var interval: Duration = .seconds(10)
        /// `every-sample`, or a window such as `60s`, `5m`.
        package var resolution = "every-sample"
        /// Also send RR intervals as `omh:rr-interval:1.0` points.
        package var rrIntervals = false
        /// Drop samples whose strap reported no skin contact instead of uploading them.
        package var dropNoContact = true
        /// Extra CA certificates (PEM) trusted for the server, besides the system store.
        package var caFile: String?
        /// Deadline for one HTTP request.
        package var timeout: Duration = .seconds(60)
    }

    /// `[metrics]`: the Prometheus endpoint.
    package struct Metrics: Sendable, Equatable {
        /// `host:port` to serve `/metrics` on; empty means off.
        package var listen = ""
    }

    /// `[web]`: the console in the browser.
    package struct Web: Sendable, Equatable {
        /// `host:port` to serve the console on; empty means off. Beyond loopback: TLS and a password.
        package var listen = ""
        /// The certificate (PEM) for TLS; nil: the gateway's own, self-signed.
        package var tlsCertificate: String?
        /// The certificate's private key (PEM); given with `tlsCertificate` or not at all.
        package var tlsKey: String?
    }

    /// `[gateway]`: the box's name, its state directory (which `--state-dir` overrides) and the
    /// hold on samples until the clock is synchronised.
    package var gateway = Gateway()
    /// `[bluetooth]`.
    package var bluetooth = Bluetooth()
    /// `[queue]`.
    package var queue = Queue()
    /// `[uplink]`: which JHE server to use, and how samples are batched, shaped and sent to it.
    package var uplink = Uplink()
    /// `[metrics]`.
    package var metrics = Metrics()
    /// `[web]`.
    package var web = Web()
}

extension GatewayConfiguration.Uplink {
    /// What uploads, `status` and `doctor` make of `base_url` and `fhir_path`.
    package var serverSettings: ServerSettings { ServerSettings(baseURL: baseURL, fhirPath: fhirPath) }
}
