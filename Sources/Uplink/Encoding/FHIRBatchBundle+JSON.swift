import OutputFormats
extension FHIRBatchBundle: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        json.key("entry")
        json.beginArray()
        for entry in entry {
            json.beginObject()
            json.key("request")
            json.beginObject()
            json.key("method")
            json.string(entry.request.method)
            json.key("url")
            json.string(entry.request.url)
            json.endObject()
            json.key("resource")
            try entry.resource.write(to: &json)
            json.endObject()
        }
        json.endArray()
        json.key("resourceType")
        json.string(resourceType)
        json.key("type")
        json.string(type)
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
        if let data = valueAttachment.data {
            json.key("data")
            json.string(data)
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
