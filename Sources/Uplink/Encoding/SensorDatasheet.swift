import GATTHeartRate

/// What the gateway knows about a strap's make, for OMH `external_datasheets`.
package struct SensorDatasheet: Sendable, Equatable, Codable {
    /// e.g. `Polar`.
    package var manufacturer: String?
    /// e.g. `H10`.
    package var model: String?

    /// A datasheet from its parts.
    package init(manufacturer: String?, model: String?) {
        self.manufacturer = manufacturer
        self.model = model
    }

    /// The `external_datasheets` entries, or `nil` when nothing is known (the field is optional).
    var entries: [OMHDatasheet]? {
        let entries = [("manufacturer", manufacturer), ("model", model)].compactMap { type, reference in
            reference.map { OMHDatasheet(datasheetType: type, datasheetReference: $0) }
        }
        return entries.isEmpty ? nil : entries
    }
}
