import Foundation

/// Hand-built upload Bundles, so the simulator's checks are tested independently of the encoder.
enum BundleFactory {
    static func payload(uuid: String = UUID().uuidString.lowercased(), value: Any = 72, unit: String = "beats/min") -> [String: Any] {
        [
            "header": [
                "uuid": uuid, "schema_id": ["namespace": "omh", "name": "heart-rate", "version": "2.0"],
                "source_creation_date_time": "2026-11-22T08:00:01.250Z", "modality": "sensed",
            ],
            "body": ["heart_rate": ["value": value, "unit": unit], "effective_time_frame": ["date_time": "2026-11-22T08:00:01.250Z"]],
        ]
    }

    static func observation(
        patient: Int = 40001, device: Int = 70001, code: String = "omh:heart-rate:2.0",
        identifier: String? = UUID().uuidString.lowercased(), payload: [String: Any]? = nil
    ) -> [String: Any] {
        var resource: [String: Any] = [
            "resourceType": "Observation", "status": "final",
            "code": ["coding": [["system": "https://w3id.org/openmhealth", "code": code]]],
            "subject": ["reference": "Patient/\(patient)"], "device": ["reference": "Device/\(device)"],
            "valueAttachment": ["contentType": "application/json", "data": data(payload ?? Self.payload())],
        ]
        if let identifier { resource["identifier"] = [["system": "urn:ietf:rfc:3986", "value": "urn:uuid:" + identifier]] }
        return resource
    }

    static func data(_ payload: [String: Any]) -> String {
        ((try? JSONSerialization.data(withJSONObject: payload)) ?? Data()).base64EncodedString()
    }

    static func bundle(_ resources: [[String: Any]]) -> Data {
        let entries = resources.map { ["resource": $0, "request": ["method": "POST", "url": "Observation"]] }
        return (try? JSONSerialization.data(withJSONObject: ["resourceType": "Bundle", "type": "batch", "entry": entries])) ?? Data()
    }
}
