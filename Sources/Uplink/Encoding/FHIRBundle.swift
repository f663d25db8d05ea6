/// The `batch` Bundle posted to `POST /FHIR/R5/`: each entry a `POST Observation`
/// (JHE mishandles any other entry kind, so no other is ever built).
package struct FHIRBatchBundle: Encodable, Sendable, Equatable {
    /// Always `Bundle`.
    package var resourceType = "Bundle"
    /// Always `batch`: entries are processed independently.
    package var type = "batch"
    /// The entries, in the order the reply will follow.
    package var entry: [Entry]

    /// A batch of Observations, each posted to `Observation`.
    package init(observations: [FHIRObservation]) {
        entry = observations.map { Entry(resource: $0, request: Request(method: "POST", url: "Observation")) }
    }

    /// One request inside the batch.
    package struct Entry: Encodable, Sendable, Equatable {
        /// The Observation.
        package var resource: FHIRObservation
        /// `POST Observation`.
        package var request: Request
    }

    /// The entry's request line.
    package struct Request: Codable, Sendable, Equatable {
        /// `POST`.
        package var method: String
        /// `Observation`.
        package var url: String
    }
}
