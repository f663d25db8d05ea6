import OutputFormats
/// A value that writes its own JSON into `JSONWriter`, keys in `.sortedKeys` order and optional
/// members left out when nil, exactly as its synthesized `Encodable` conformance would through
/// `JSONEncoder` (the upload tests compare the two byte for byte).
protocol JSONWritable {
    /// Appends this value's JSON to `json`.
    func write(to json: inout JSONWriter) throws(UplinkError)
}

extension Array: JSONWritable where Element: JSONWritable {
    func write(to json: inout JSONWriter) throws(UplinkError) {
        json.beginArray()
        for element in self { try element.write(to: &json) }
        json.endArray()
    }
}
