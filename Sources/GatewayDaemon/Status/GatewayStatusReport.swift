#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the running daemon knows that the files do not: written to `<state>/status.json`
/// every few seconds (atomically) and read by `edge-gateway status` and `doctor`. The queue's
/// own counts are not in it: readers take them from the queue file, which is always current.
public struct GatewayStatusReport: Codable, Sendable, Equatable {
    /// The format of this file.
    static let currentVersion = 1
    /// The file's name in the state directory.
    static let fileName = "status.json"

    var version = currentVersion
    /// `[gateway] name`.
    var gatewayName: String
    /// The daemon's process id, to tell a stale file from a live daemon.
    var pid: Int32
    /// When the daemon started and when this report was written (wall clock).
    var startedAt: Date
    public var writtenAt: Date
    /// How often the daemon rewrites this file; a report older than a few periods is stale.
    var refreshSeconds: Double
    /// Whether the kernel says the system clock is synchronised.
    var clockSynchronized: Bool
    /// Samples captured before the clock synchronised, held until their times are repaired.
    var samplesAwaitingClock: Int
    public var sensors: [SensorStatus]
    public var uplink: UplinkStatus

    /// One bound strap, as its supervisor sees it.
    public struct SensorStatus: Codable, Sendable, Equatable {
        public var address: String
        public var alias: String?
        var patientID: String?
        /// `SensorState.name`, and its detail (`waiting: adapter hci0 is powered off`).
        public var state: String
        var stateDetail: String
        var lastSampleAt: Date?
        public var bpm: Int?
        var batteryPercent: Int?
        /// Since the daemon started.
        public var samplesReceived: Int
        public var samplesAccepted: Int
        public var samplesDelivered: Int
        var samplesDuplicate: Int
        var samplesRejected: Int
        var malformedFrames: Int
        var reconnects: Int
    }

    /// The uploader's view of JHE.
    public struct UplinkStatus: Codable, Sendable, Equatable {
        /// The server in use, or nil when the gateway is not enrolled.
        var server: String?
        public var lastSuccessAt: Date?
        var lastErrorAt: Date?
        var lastError: String?
        /// Why uploads are failing now and since when (the start of the episode); nil while
        /// they go through.
        public var currentError: String?
        public var failingSince: Date?
        /// When the access token expires (it is renewed before).
        var tokenExpiresAt: Date?
        var tokenRefreshes: Int
        /// Set when the grant is lost and `edge-gateway enroll` must be run again.
        var reenrolmentRequired: String?
    }
}
