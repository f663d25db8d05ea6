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
    /// When this report was written (wall clock): `status` shows its age and judges the daemon
    /// not running when it is older than a few `refreshSeconds`.
    public var writtenAt: Date
    /// How often the daemon rewrites this file; a report older than a few periods is stale.
    var refreshSeconds: Double
    /// Whether the kernel says the system clock is synchronised.
    var clockSynchronized: Bool
    /// Samples captured before the clock synchronised, held until their times are repaired.
    var samplesAwaitingClock: Int
    /// The queue's storage fault under way (a full or failing disk), with its code, and since
    /// when; nil while commits succeed.
    var storageFault: String?
    var storageFaultSince: Date?
    /// While commits are slow (longer than 2 s): the last one's duration in seconds.
    var storageSlowCommitSeconds: Double?
    /// One entry per strap bound when the report was written, in address order.
    public var sensors: [SensorStatus]
    /// Delivery to JHE: last success, the current failure episode, the token.
    public var uplink: UplinkStatus

    /// One bound strap, as its supervisor sees it.
    public struct SensorStatus: Codable, Sendable, Equatable {
        /// The strap's address in `BluetoothAddress` text form (`F0:1D:2E:3C:4B:5A`).
        public var address: String
        /// The technician's name for the strap (`SensorBinding.alias`), if one was given.
        public var alias: String?
        var patientID: String?
        /// `SensorState.name`, and its detail (`waiting: adapter hci0 is powered off`).
        public var state: String
        var stateDetail: String
        var lastSampleAt: Date?
        /// Heart rate of the last sample received, in beats per minute; nil before the first one.
        public var bpm: Int?
        var batteryPercent: Int?
        /// Since the daemon started.
        public var samplesReceived: Int
        /// Samples made durable (committed to the queue, or held for the clock) since the daemon
        /// started.
        public var samplesAccepted: Int
        /// Samples JHE stored (not duplicates or rejections) since the daemon started.
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
        /// When an upload round last settled samples without a retryable failure; nil before one.
        public var lastSuccessAt: Date?
        var lastErrorAt: Date?
        var lastError: String?
        /// Why uploads are failing now and since when (the start of the episode); nil while
        /// they go through.
        public var currentError: String?
        /// Start of the current failure episode (see `currentError`); nil while uploads go through.
        public var failingSince: Date?
        /// When the access token expires (it is renewed before).
        var tokenExpiresAt: Date?
        var tokenRefreshes: Int
        /// Set when the grant is lost and `edge-gateway enroll` must be run again.
        var reenrolmentRequired: String?
    }
}
