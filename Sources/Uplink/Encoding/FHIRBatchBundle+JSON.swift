import OutputFormats
extension FHIRBatchBundle {
    /// Writes a batch Bundle of `count` `POST Observation` entries, asking for each Observation
    /// only as it is written, so that an upload holds one at a time beside the Bundle.
    static func write(
        entries count: Int, to json: inout JSONWriter, observation: (Int) throws(UplinkError) -> FHIRObservation
    ) throws(UplinkError) {
        json.beginObject()
        json.key("entry")
        json.beginArray()
        for index in 0 ..< count {
            json.beginObject()
            json.key("request")
            json.beginObject()
            json.key("method")
            json.string("POST")
            json.key("url")
            json.string("Observation")
            json.endObject()
            json.key("resource")
            try observation(index).write(to: &json)
            json.endObject()
        }
        json.endArray()
        json.key("resourceType")
        json.string("Bundle")
        json.key("type")
        json.string("batch")
        json.endObject()
    }
}

extension FHIRObservation: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        json.key("code")
        json.beginObject()
        json.key("coding")
        json.beginArray()
        for coding in code.coding {
            json.beginObject()
            json.key("code")
            json.string(coding.code)
            if let display = coding.display {
                json.key("display")
                json.string(display)
            }
            json.key("system")
            json.string(coding.system)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.key("device")
        device.write(to: &json)
        json.key("effectiveDateTime")
        json.string(effectiveDateTime)
        json.key("identifier")
        json.beginArray()
        for identifier in identifier {
            json.beginObject()
            json.key("system")
            json.string(identifier.system)
            json.key("value")
            json.string(identifier.value)
            json.endObject()
        }
        json.endArray()
        json.key("resourceType")
        json.string(resourceType)
        json.key("status")
        json.string(status)
        json.key("subject")
        subject.write(to: &json)
        json.key("valueAttachment")
        json.beginObject()
        json.key("contentType")
        json.string(valueAttachment.contentType)
        if let payload = valueAttachment.payload {
            json.key("data")
            json.base64String(payload)
        }
        json.endObject()
        json.endObject()
    }
}

extension FHIRReference {
    fileprivate func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("reference")
        json.string(reference)
        json.endObject()
    }
}
