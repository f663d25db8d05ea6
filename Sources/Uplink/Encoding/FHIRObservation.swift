/// The FHIR R5 Observation JHE stores one OMH data point in (contract §5).
///
/// Only the fields JHE reads or the gateway must get right; `code.coding` holds exactly one
/// coding because a second one makes JHE fail the entry.
public struct FHIRObservation: Codable, Sendable, Equatable {
    /// Always `Observation`.
    public var resourceType = "Observation"
    /// Always `final`: JHE fails the whole request without a status.
    public var status = "final"
    /// `urn:ietf:rfc:3986` / `urn:uuid:<sample id>`: JHE's de-duplication key (409 on repeat).
    public var identifier: [FHIRIdentifier]
    /// The one OMH coding (`https://w3id.org/openmhealth`, `omh:heart-rate:2.0`).
    public var code: FHIRCodeableConcept
    /// `Patient/<id>`.
    public var subject: FHIRReference
    /// `Device/<data source id>`.
    public var device: FHIRReference
    /// The reading's time (or a window's start).
    public var effectiveDateTime: String
    /// Base64 of the ASCII-only OMH JSON.
    public var valueAttachment: FHIRAttachment
}

/// A FHIR Identifier (system + value).
public struct FHIRIdentifier: Codable, Sendable, Equatable {
    /// `urn:ietf:rfc:3986`.
    public var system: String
    /// `urn:uuid:<uuid>`.
    public var value: String
}

/// A FHIR CodeableConcept with its codings.
public struct FHIRCodeableConcept: Codable, Sendable, Equatable {
    /// Exactly one element in everything the gateway sends.
    public var coding: [FHIRCoding]
}

/// A FHIR Coding.
public struct FHIRCoding: Codable, Sendable, Equatable {
    /// The code system.
    public var system: String
    /// The code.
    public var code: String
    /// Human-readable name.
    public var display: String?
}

/// A FHIR Reference (`Patient/40006`).
public struct FHIRReference: Codable, Sendable, Equatable {
    /// `Type/id`.
    public var reference: String
}

/// A FHIR Attachment carrying inline data.
public struct FHIRAttachment: Codable, Sendable, Equatable {
    /// `application/json`.
    public var contentType: String
    /// Base64 of the payload.
    public var data: String?
}
