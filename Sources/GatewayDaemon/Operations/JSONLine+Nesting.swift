extension JSONLine {
    /// Adds `"key":{…}`: `.number` carries JSON text verbatim, and an object's text is JSON.
    mutating func add(_ key: String, object: JSONLine) {
        add(key, .number(object.text))
    }

    /// Adds `"key":[{…},…]`.
    mutating func add(_ key: String, objects: [JSONLine]) {
        add(key, .array(objects.map { .number($0.text) }))
    }

    /// A string or null.
    static func optional(_ text: String?) -> Value { text.map { .string($0) } ?? .null }
    /// An integer or null.
    static func optional(_ number: Int?) -> Value { number.map { .integer($0) } ?? .null }
}
