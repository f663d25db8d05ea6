import OutputFormats
extension OMHDataPoint: JSONWritable where Body: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        json.key("body")
        try body.write(to: &json)
        json.key("header")
        try header.write(to: &json)
        json.endObject()
    }
}

extension OMHHeader: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        if let externalDatasheets {
            json.key("external_datasheets")
            try externalDatasheets.write(to: &json)
        }
        json.key("modality")
        json.string(modality)
        json.key("schema_id")
        try schemaID.write(to: &json)
        json.key("source_creation_date_time")
        json.string(sourceCreationDateTime)
        json.key("uuid")
        json.string(uuid)
        json.endObject()
    }
}

extension OMHSchemaID: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        json.key("name")
        json.string(name)
        json.key("namespace")
        json.string(namespace)
        json.key("version")
        json.string(version)
        json.endObject()
    }
}

extension OMHDatasheet: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        json.key("datasheet_reference")
        json.string(datasheetReference)
        json.key("datasheet_type")
        json.string(datasheetType)
        json.endObject()
    }
}

extension HeartRateBody: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        if let descriptiveStatistic {
            json.key("descriptive_statistic")
            json.string(descriptiveStatistic)
        }
        json.key("effective_time_frame")
        try effectiveTimeFrame.write(to: &json)
        json.key("heart_rate")
        try heartRate.write(to: &json)
        json.endObject()
    }
}

extension RRIntervalBody: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        json.key("effective_time_frame")
        try effectiveTimeFrame.write(to: &json)
        json.key("rr_interval")
        try rrInterval.write(to: &json)
        json.endObject()
    }
}

extension OMHUnitValue: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        json.key("unit")
        json.string(unit)
        json.key("value")
        do {
            try json.number(value)
        } catch {
            throw UplinkError(
                .unencodableValue,
                "A sample gave a non-finite number (\(value)), which JSON cannot carry; the sample stays in the queue. Please report this as a bug, with the sample from `edge-gateway queue export`."
            )
        }
        json.endObject()
    }
}

extension OMHTimeFrame: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginObject()
        if let dateTime {
            json.key("date_time")
            json.string(dateTime)
        }
        if let timeInterval {
            json.key("time_interval")
            json.beginObject()
            json.key("end_date_time")
            json.string(timeInterval.endDateTime)
            json.key("start_date_time")
            json.string(timeInterval.startDateTime)
            json.endObject()
        }
        json.endObject()
    }
}
