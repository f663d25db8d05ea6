/// The `batch` Bundle posted to `POST /FHIR/R5/`: each entry a `POST Observation`
/// (JHE mishandles any other entry kind, so no other is ever built).
public struct FHIRBatchBundle: Codable, Sendable, Equatable {
    /// Always `Bundle`.
    public var resourceType = "Bundle"
    /// Always `batch`: entries are processed independently.
    public var type = "batch"
    /// The entries, in the order the reply will follow.
    public var entry: [Entry]

    /// A batch of Observations, each posted to `Observation`.
    public init(observations: [FHIRObservation]) {
        entry = observations.map { Entry(resource: $0, request: Request(method: "POST", url: "Observation")) }
    }

    /// One request inside the batch.
    public struct Entry: Codable, Sendable, Equatable {
        /// The Observation.
        public var resource: FHIRObservation
        /// `POST Observation`.
        public var request: Request
    }

    /// The entry's request line.
    public struct Request: Codable, Sendable, Equatable {
        /// `POST`.
        public var method: String
        /// `Observation`.
        public var url: String
    }
}
