import OutputFormats

/// The FHIR R5 Observation JHE stores one OMH data point in (contract §5).
///
/// Only the fields JHE reads or the gateway must get right; `code.coding` holds exactly one
/// coding because a second one makes JHE fail the entry.
package struct FHIRObservation: Encodable, Sendable, Equatable {
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
///
/// It holds the payload's bytes, which the Bundle's writer turns into base64 as it writes them;
/// its `Encodable` form is FHIR's, with the base64 text in `data`.
package struct FHIRAttachment: Encodable, Sendable, Equatable {
    /// `application/json`.
    package var contentType: String
    /// The payload, if any.
    package var payload: [UInt8]?

    /// An attachment of `contentType` carrying `payload`.
    package init(contentType: String, payload: [UInt8]?) {
        self.contentType = contentType
        self.payload = payload
    }

    /// Base64 of the payload, as FHIR's `data` carries it.
    package var data: String? { payload.map(ByteText.base64) }

    private enum CodingKeys: String, CodingKey {
        case contentType, data
    }

    /// Writes FHIR's form: the payload as base64 in `data`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(contentType, forKey: .contentType)
        try container.encodeIfPresent(data, forKey: .data)
    }
}
