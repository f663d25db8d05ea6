/// The FHIR R5 Observation JHE stores one OMH data point in (contract §5).
///
/// Only the fields JHE reads or the gateway must get right; `code.coding` holds exactly one
/// coding because a second one makes JHE fail the entry.
package struct FHIRObservation: Codable, Sendable, Equatable {
    /// Always `Observation`.
    package var resourceType = "Observation"
    /// Always `final`: JHE fails the whole request without a status.
    package var status = "final"
    /// `urn:ietf:rfc:3986` / `urn:uuid:<sample id>`: JHE's de-duplication key (409 on repeat).
    package var identifier: [FHIRIdentifier]
    /// The one OMH coding (`https://w3id.org/openmhealth`, `omh:heart-rate:2.0`).
    package var code: FHIRCodeableConcept
    /// `Patient/<id>`.
    package var subject: FHIRReference
    /// `Device/<data source id>`.
    package var device: FHIRReference
    /// The reading's time (or a window's start).
    package var effectiveDateTime: String
    /// Base64 of the ASCII-only OMH JSON.
    package var valueAttachment: FHIRAttachment
}

/// A FHIR Identifier (system + value).
package struct FHIRIdentifier: Codable, Sendable, Equatable {
    /// `urn:ietf:rfc:3986`.
    package var system: String
    /// `urn:uuid:<uuid>`.
    package var value: String
}

/// A FHIR CodeableConcept with its codings.
package struct FHIRCodeableConcept: Codable, Sendable, Equatable {
    /// Exactly one element in everything the gateway sends.
    package var coding: [FHIRCoding]
}

/// A FHIR Coding.
package struct FHIRCoding: Codable, Sendable, Equatable {
    /// The code system.
    package var system: String
    /// The code.
    package var code: String
    /// Human-readable name.
    package var display: String?
}

/// A FHIR Reference (`Patient/40006`).
package struct FHIRReference: Codable, Sendable, Equatable {
    /// `Type/id`.
    package var reference: String
}

/// A FHIR Attachment carrying inline data.
package struct FHIRAttachment: Codable, Sendable, Equatable {
    /// `application/json`.
    package var contentType: String
    /// Base64 of the payload.
    package var data: String?
}
