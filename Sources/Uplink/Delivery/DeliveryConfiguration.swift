/// How `JHEClient` batches, waits and encodes.
public struct DeliveryConfiguration: Sendable {
    /// Entries per `POST /FHIR/R5/` (JHE spends 10–14 ms per entry behind a 30 s worker timeout).
    public var batchSize: Int
    /// Deadline for one HTTP request.
    public var requestTimeout: Duration
    /// Retry waits.
    public var backoff: BackoffPolicy
    /// Which data points to make.
    public var encoding: EncodingOptions

    /// A configuration with the contract's defaults (batch 100).
    public init(
        batchSize: Int = 100, requestTimeout: Duration = .seconds(60), backoff: BackoffPolicy = BackoffPolicy(),
        encoding: EncodingOptions = EncodingOptions()
    ) {
        self.batchSize = max(1, batchSize)
        self.requestTimeout = requestTimeout
        self.backoff = backoff
        self.encoding = encoding
    }
}
