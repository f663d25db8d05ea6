import GATTHeartRate

/// How `JHEClient` batches, waits and encodes.
public struct DeliveryConfiguration: Sendable {
    /// Entries per `POST /FHIR/R5/` (JHE spends 10–14 ms per entry behind a 30 s worker timeout).
    public var batchSize: Int
    /// Deadline for one HTTP request.
    public var requestTimeout: Duration
    /// Retry waits.
    public var backoff: BackoffPolicy
    /// One point per sample, or windowed statistics.
    public var resolution: UploadResolution
    /// Also send RR intervals (`omh:rr-interval:1.0`).
    public var includeRRIntervals: Bool
    /// Make and model per strap.
    public var datasheets: [BluetoothAddress: SensorDatasheet]
    /// Make and model for other straps.
    public var defaultDatasheet: SensorDatasheet?

    /// A configuration with the contract's defaults (batch 100).
    public init(
        batchSize: Int = 100, requestTimeout: Duration = .seconds(60), backoff: BackoffPolicy = BackoffPolicy(),
        resolution: UploadResolution = .everySample, includeRRIntervals: Bool = false,
        datasheets: [BluetoothAddress: SensorDatasheet] = [:], defaultDatasheet: SensorDatasheet? = nil
    ) {
        self.batchSize = max(1, batchSize)
        self.requestTimeout = requestTimeout
        self.backoff = backoff
        self.resolution = resolution
        self.includeRRIntervals = includeRRIntervals
        self.datasheets = datasheets
        self.defaultDatasheet = defaultDatasheet
    }
}
