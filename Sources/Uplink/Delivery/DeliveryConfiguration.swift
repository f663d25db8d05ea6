/// How `JHEClient` batches, waits for a whole-request failure, and encodes.
package struct DeliveryConfiguration: Sendable {
    /// Entries per `POST /FHIR/R5/` (JHE spends 10–14 ms per entry behind a 30 s worker timeout).
    package var batchSize: Int
    /// Deadline for one HTTP request.
    package var requestTimeout: Duration
    /// The pause before re-posting a batch the server refused as a whole (400/500), to tell a
    /// poison entry (refused again: the batch is bisected) from a passing server fault.
    package var poisonConfirmationPause: Duration
    /// Which data points to make.
    package var encoding: EncodingOptions

    /// A configuration with the contract's defaults (batch 100).
    package init(
        batchSize: Int = 100, requestTimeout: Duration = .seconds(60), poisonConfirmationPause: Duration = .milliseconds(500),
        encoding: EncodingOptions = EncodingOptions()
    ) {
        self.batchSize = max(1, batchSize)
        self.requestTimeout = requestTimeout
        self.poisonConfirmationPause = poisonConfirmationPause
        self.encoding = encoding
    }
}
