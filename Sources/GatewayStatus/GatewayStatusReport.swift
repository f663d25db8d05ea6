#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the running daemon knows that the files do not: written to `<state>/status.json`
/// every few seconds (atomically) and read by `edge-gateway status` and `doctor`. The queue's
/// own counts are not in it: readers take them from the queue file, which is always current.
package struct GatewayStatusReport: Codable, Sendable, Equatable {
    /// The format of this file.
    package static let currentVersion = 1
    /// The file's name in the state directory.
    package static let fileName = "status.json"

    /// The format of this report (`currentVersion` when written by this build).
    package var version = currentVersion
    /// `[gateway] name`.
    package var gatewayName: String
    /// The daemon's process id, to tell a stale file from a live daemon.
    package var pid: Int32
    /// When the daemon started and when this report was written (wall clock).
    package var startedAt: Date
    /// When this report was written (wall clock): `status` shows its age and judges the daemon
    /// not running when it is older than a few `refreshSeconds`.
    package var writtenAt: Date
    /// How often the daemon rewrites this file; a report older than a few periods is stale.
    package var refreshSeconds: Double
    /// Whether the kernel says the system clock is synchronised.
    package var clockSynchronized: Bool
    /// Samples captured before the clock synchronised, held until their times are repaired.
    package var samplesAwaitingClock: Int
    /// The queue's storage fault under way (a full or failing disk), with its code, and since
    /// when; nil while commits succeed.
    package var storageFault: String?
    /// When the storage fault began.
    package var storageFaultSince: Date?
    /// While commits are slow (longer than 2 s): the last one's duration in seconds.
    package var storageSlowCommitSeconds: Double?
    /// One entry per strap bound when the report was written, in address order.
    package var sensors: [SensorStatus]
    /// The Bluetooth adapters the gateway uses (or that still hold a strap), by name.
    package var adapters: [AdapterStatus]
    /// Delivery to JHE: last success, the current failure episode, the token.
    package var uplink: UplinkStatus

    /// Every field given: the memberwise initializer, which Swift would make only `internal`.
    package init(
        gatewayName: String,
        pid: Int32,
        startedAt: Date,
        writtenAt: Date,
        refreshSeconds: Double,
        clockSynchronized: Bool,
        samplesAwaitingClock: Int,
        storageFault: String? = nil,
        storageFaultSince: Date? = nil,
        storageSlowCommitSeconds: Double? = nil,
        sensors: [SensorStatus],
        adapters: [AdapterStatus] = [],
        uplink: UplinkStatus
    ) {
        self.gatewayName = gatewayName
        self.pid = pid
        self.startedAt = startedAt
        self.writtenAt = writtenAt
        self.refreshSeconds = refreshSeconds
        self.clockSynchronized = clockSynchronized
        self.samplesAwaitingClock = samplesAwaitingClock
        self.storageFault = storageFault
        self.storageFaultSince = storageFaultSince
        self.storageSlowCommitSeconds = storageSlowCommitSeconds
        self.sensors = sensors
        self.adapters = adapters
        self.uplink = uplink
    }

    /// One bound strap, as its supervisor sees it.
    package struct SensorStatus: Codable, Sendable, Equatable {
        /// The strap's address in `BluetoothAddress` text form (`F0:1D:2E:3C:4B:5A`).
        package var address: String
        /// The adapter it is placed on, while it is.
        package var adapter: String?
        /// The technician's name for the strap (`SensorBinding.alias`), if one was given.
        package var alias: String?
        /// The patient the strap's samples are filed under, when the binding names one.
        package var patientID: String?
        /// `SensorState.name`, and its detail (`waiting: adapter hci0 is powered off`).
        package var state: String
        /// The state's detail: what it waits for, or why it backs off.
        package var stateDetail: String
        /// When the last sample was received; nil before the first one.
        package var lastSampleAt: Date?
        /// Heart rate of the last sample received, in beats per minute; nil before the first one.
        package var bpm: Int?
        /// The strap's Battery Level, as last read; nil when it has none.
        package var batteryPercent: Int?
        /// The last sample's skin contact (`detected`, `not-detected`, `not-supported`); nil
        /// before the first one.
        package var skinContact: String?
        /// The last sample's RR intervals in milliseconds, oldest first (empty when its frame
        /// carried none); nil before the first sample.
        package var rrIntervalsMs: [Double]?
        /// The signal strength in dBm at which the strap's adapter last saw it advertise, as
        /// bluetoothd reports it (it updates only while discovering, so it is as of the strap's
        /// placement); nil when unknown.
        package var rssi: Int?
        /// Since the daemon started.
        package var samplesReceived: Int
        /// Samples made durable (committed to the queue, or held for the clock) since the daemon
        /// started.
        package var samplesAccepted: Int
        /// Samples JHE stored (not duplicates or rejections) since the daemon started.
        package var samplesDelivered: Int
        /// Samples JHE already had (409) since the daemon started.
        package var samplesDuplicate: Int
        /// Samples JHE refused (dead-lettered) since the daemon started.
        package var samplesRejected: Int
        /// Frames that did not decode since the daemon started.
        package var malformedFrames: Int
        /// Connections made again after a loss since the daemon started.
        package var reconnects: Int

        /// Every field given: the memberwise initializer, which Swift would make only `internal`.
        package init(
            address: String,
            adapter: String? = nil,
            alias: String? = nil,
            patientID: String? = nil,
            state: String,
            stateDetail: String,
            lastSampleAt: Date? = nil,
            bpm: Int? = nil,
            batteryPercent: Int? = nil,
            samplesReceived: Int,
            samplesAccepted: Int,
            samplesDelivered: Int,
            samplesDuplicate: Int,
            samplesRejected: Int,
            malformedFrames: Int,
            reconnects: Int
        ) {
            self.address = address
            self.adapter = adapter
            self.alias = alias
            self.patientID = patientID
            self.state = state
            self.stateDetail = stateDetail
            self.lastSampleAt = lastSampleAt
            self.bpm = bpm
            self.batteryPercent = batteryPercent
            self.samplesReceived = samplesReceived
            self.samplesAccepted = samplesAccepted
            self.samplesDelivered = samplesDelivered
            self.samplesDuplicate = samplesDuplicate
            self.samplesRejected = samplesRejected
            self.malformedFrames = malformedFrames
            self.reconnects = reconnects
        }
    }

    /// The uploader's view of JHE.
    package struct UplinkStatus: Codable, Sendable, Equatable {
        /// The server in use, or nil when the gateway is not enrolled.
        package var server: String?
        /// When an upload round last settled samples without a retryable failure; nil before one.
        package var lastSuccessAt: Date?
        /// When an upload last failed; nil before the first failure.
        package var lastErrorAt: Date?
        /// That failure's message.
        package var lastError: String?
        /// Why uploads are failing now and since when (the start of the episode); nil while
        /// they go through.
        package var currentError: String?
        /// Start of the current failure episode (see `currentError`); nil while uploads go through.
        package var failingSince: Date?
        /// When the access token expires (it is renewed before).
        package var tokenExpiresAt: Date?
        /// Access tokens renewed since the daemon started.
        package var tokenRefreshes: Int
        /// Set when the grant is lost and `edge-gateway enroll` must be run again.
        package var reenrolmentRequired: String?

        /// Every field given: the memberwise initializer, which Swift would make only `internal`.
        package init(
            server: String? = nil,
            lastSuccessAt: Date? = nil,
            lastErrorAt: Date? = nil,
            lastError: String? = nil,
            currentError: String? = nil,
            failingSince: Date? = nil,
            tokenExpiresAt: Date? = nil,
            tokenRefreshes: Int,
            reenrolmentRequired: String? = nil
        ) {
            self.server = server
            self.lastSuccessAt = lastSuccessAt
            self.lastErrorAt = lastErrorAt
            self.lastError = lastError
            self.currentError = currentError
            self.failingSince = failingSince
            self.tokenExpiresAt = tokenExpiresAt
            self.tokenRefreshes = tokenRefreshes
            self.reenrolmentRequired = reenrolmentRequired
        }
    }
}
