/// How `JHEClient` batches, waits for a whole-request failure, and encodes.
public struct DeliveryConfiguration: Sendable {
    /// Entries per `POST /FHIR/R5/` (JHE spends 10–14 ms per entry behind a 30 s worker timeout).
    public var batchSize: Int
    /// Deadline for one HTTP request.
    public var requestTimeout: Duration
    /// The pause before re-posting a batch the server refused as a whole (400/500), to tell a
    /// poison entry (refused again: the batch is bisected) from a passing server fault.
    public var poisonConfirmationPause: Duration
    /// Which data points to make.
    public var encoding: EncodingOptions

    /// A configuration with the contract's defaults (batch 100).
    public init(
        batchSize: Int = 100, requestTimeout: Duration = .seconds(60), poisonConfirmationPause: Duration = .milliseconds(500),
        encoding: EncodingOptions = EncodingOptions()
    ) {
        self.batchSize = max(1, batchSize)
        self.requestTimeout = requestTimeout
        self.poisonConfirmationPause = poisonConfirmationPause
        self.encoding = encoding
    }
}
