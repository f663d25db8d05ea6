/// An Open mHealth data point: the IEEE 1752 header plus a typed body.
///
/// Generic over the body so heart rate and RR interval share one header shape; field names are
/// the schemas' snake_case names, spelled out in `CodingKeys` where Swift's differ.
package struct OMHDataPoint<Body: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// Identity, schema, creation time and provenance.
    package var header: OMHHeader
    /// The measured value and when it applies.
    package var body: Body

    /// A data point from its parts.
    package init(header: OMHHeader, body: Body) {
        self.header = header
        self.body = body
    }
}

/// The IEEE 1752 `header-1.0` fields the gateway fills.
package struct OMHHeader: Codable, Sendable, Equatable {
    /// Lower-case UUID; equals the sample id so a re-sent point keeps its identity.
    package var uuid: String
    /// Which body schema this is (`omh:heart-rate:2.0`).
    package var schemaID: OMHSchemaID
    /// When the gateway created the point at the source: the capture time.
    package var sourceCreationDateTime: String
    /// Always `sensed` for strap readings.
    package var modality: String
    /// Manufacturer and model of the strap, when known.
    package var externalDatasheets: [OMHDatasheet]?

    /// A header from its parts.
    package init(
        uuid: String, schemaID: OMHSchemaID, sourceCreationDateTime: String,
        modality: String = "sensed", externalDatasheets: [OMHDatasheet]? = nil
    ) {
        self.uuid = uuid
        self.schemaID = schemaID
        self.sourceCreationDateTime = sourceCreationDateTime
        self.modality = modality
        self.externalDatasheets = externalDatasheets
    }

    private enum CodingKeys: String, CodingKey {
        case uuid
        case schemaID = "schema_id"
        case sourceCreationDateTime = "source_creation_date_time"
        case modality
        case externalDatasheets = "external_datasheets"
    }
}

/// An OMH schema identifier (`namespace`, `name`, `version`).
package struct OMHSchemaID: Codable, Sendable, Equatable {
    /// `omh`.
    package var namespace: String
    /// `heart-rate` or `rr-interval`.
    package var name: String
    /// `2.0` or `1.0`.
    package var version: String

    /// The heart-rate 2.0 schema, the one JHE knows as `omh:heart-rate:2.0`.
    package static let heartRate = OMHSchemaID(namespace: "omh", name: "heart-rate", version: "2.0")
    /// The RR-interval 1.0 schema (`omh:rr-interval:1.0`).
    package static let rrInterval = OMHSchemaID(namespace: "omh", name: "rr-interval", version: "1.0")

    /// The FHIR coding code JHE registers for this schema, e.g. `omh:heart-rate:2.0`.
    package var code: String { "\(namespace):\(name):\(version)" }
}

/// One `external_datasheets` entry: provenance of the reading (manufacturer, model).
package struct OMHDatasheet: Codable, Sendable, Equatable {
    /// `manufacturer` or `model`.
    package var datasheetType: String
    /// The manufacturer's or model's name.
    package var datasheetReference: String

    /// A datasheet entry from its parts.
    package init(datasheetType: String, datasheetReference: String) {
        self.datasheetType = datasheetType
        self.datasheetReference = datasheetReference
    }

    private enum CodingKeys: String, CodingKey {
        case datasheetType = "datasheet_type"
        case datasheetReference = "datasheet_reference"
    }
}
