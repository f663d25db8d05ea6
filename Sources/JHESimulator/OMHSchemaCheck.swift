import Foundation

/// The schema-level checks JHE applies to a decoded data point (contract §3 step 7): the IEEE
/// `header-1.0` and the body schema of the entry's code, written out by hand for the two codes
/// the gateway sends. Returns the problems, empty when the point is valid.
enum OMHSchemaCheck {
    static let statistics: Set<String> = [
        "average", "count", "maximum", "median", "minimum", "standard deviation", "sum", "variance",
        "20th percentile", "80th percentile", "lower quartile", "upper quartile", "quartile deviation",
        "1st quintile", "2nd quintile", "3rd quintile", "4th quintile",
    ]

    static func problems(in point: Any, code: String) -> [String] {
        guard let point = point as? [String: Any] else { return ["data point is not a JSON object"] }
        var problems = header(point["header"])
        switch code {
        case "omh:heart-rate:2.0":
            problems += body(point["body"], valueKey: "heart_rate", unit: "beats/min", timeFrameRequired: true)
        case "omh:rr-interval:1.0":
            problems += body(point["body"], valueKey: "rr_interval", unit: "ms", timeFrameRequired: false)
        default:
            break
        }
        return problems
    }

    static func header(_ value: Any?) -> [String] {
        guard let header = value as? [String: Any] else { return ["header: is not an object"] }
        var problems: [String] = []
        if !(header["uuid"] is String) { problems.append("header.uuid: required string") }
        if !(header["source_creation_date_time"] is String) { problems.append("header.source_creation_date_time: required string") }
        if let schema = header["schema_id"] as? [String: Any] {
            for key in ["namespace", "name", "version"] where !(schema[key] is String) {
                problems.append("header.schema_id.\(key): required string")
            }
        } else {
            problems.append("header.schema_id: required object")
        }
        if let modality = header["modality"], !["sensed", "self-reported"].contains(modality as? String ?? "") {
            problems.append("header.modality: must be sensed or self-reported")
        }
        if let sheets = header["external_datasheets"] {
            let valid = (sheets as? [Any])?.allSatisfy { (($0 as? [String: Any])?["datasheet_reference"]) is String } ?? false
            if !valid { problems.append("header.external_datasheets: items need a datasheet_reference string") }
        }
        return problems
    }

    static func body(_ value: Any?, valueKey: String, unit: String, timeFrameRequired: Bool) -> [String] {
        guard let body = value as? [String: Any] else { return ["body: is not an object"] }
        var problems: [String] = []
        if let unitValue = body[valueKey] as? [String: Any] {
            if !isNumber(unitValue["value"]) { problems.append("body.\(valueKey).value: must be a number") }
            if unitValue["unit"] as? String != unit { problems.append("body.\(valueKey).unit: must be '\(unit)'") }
        } else {
            problems.append("body.\(valueKey): required object")
        }
        if let frame = body["effective_time_frame"] {
            problems += timeFrame(frame)
        } else if timeFrameRequired {
            problems.append("body.effective_time_frame: required")
        }
        if let statistic = body["descriptive_statistic"], !statistics.contains(statistic as? String ?? "") {
            problems.append("body.descriptive_statistic: not a known statistic")
        }
        return problems
    }

    static func timeFrame(_ value: Any) -> [String] {
        guard let frame = value as? [String: Any] else { return ["body.effective_time_frame: is not an object"] }
        if frame["date_time"] is String { return [] }
        if let interval = frame["time_interval"] as? [String: Any] {
            let has = { (key: String) in interval[key] != nil }
            if (has("start_date_time") && has("end_date_time")) || (has("start_date_time") && has("duration"))
                || (has("end_date_time") && has("duration"))
            {
                return []
            }
            return ["body.effective_time_frame.time_interval: needs two of start_date_time, end_date_time, duration"]
        }
        return ["body.effective_time_frame: needs date_time or time_interval"]
    }

    /// A JSON number: JSONSerialization gives NSNumber for numbers and its boolean subclass
    /// `__NSCFBoolean` for `true`/`false`, which a schema `number` must refuse.
    static func isNumber(_ value: Any?) -> Bool {
        guard let value, value is NSNumber else { return false }
        return !String(describing: type(of: value)).contains("Boolean")
    }
}
