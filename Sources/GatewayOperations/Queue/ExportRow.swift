#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import OfflineQueue
import OutputFormats

/// One exported sample, as a JSON line or a CSV row with the same columns in the same order.
package struct ExportRow {
    /// The column names, which are also the JSON keys.
    package static let columns = [
        "record_id", "stream", "sample_id", "sensor", "patient_id", "captured_utc", "wall_clock_ns",
        "wall_clock_synchronized", "bpm", "contact", "energy_expended_kj", "rr_intervals_ms",
    ]

    let record: QueuedRecord
    let sample: HeartRateSample

    /// The row for `record`, which holds `sample`.
    package init(record: QueuedRecord, sample: HeartRateSample) {
        self.record = record
        self.sample = sample
    }

    /// The row as one JSON object on one line.
    package var jsonLine: String {
        var line = JSONLine()
        for (key, value) in zip(Self.columns, jsonValues) { line.add(key, value) }
        return line.text
    }

    /// The row as CSV, in the order of `columns`.
    package var csvLine: String {
        jsonValues.map(Self.csvField).joined(separator: ",")
    }

    /// The CSV header line: `columns`, comma-separated.
    package static var csvHeader: String { columns.joined(separator: ",") }

    /// `nanoseconds` since 1970 as ISO 8601 UTC with milliseconds.
    package static func utc(_ nanoseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
            .formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private var jsonValues: [JSONLine.Value] {
        let measurement = sample.measurement
        return [
            .integer(Int(record.id)), .string(record.stream), .string(sample.id.lowercasedText),
            .string(sample.sensor.description), sample.patientID.map(JSONLine.Value.string) ?? .null,
            .string(Self.utc(sample.captured.wallClockNanoseconds)),
            .integer(Int(sample.captured.wallClockNanoseconds)),
            .boolean(sample.captured.wallClockSynchronized),
            .integer(Int(measurement.bpm)), .string(measurement.contact.rawValue),
            measurement.energyExpended.map { .integer(Int($0)) } ?? .null,
            .array(measurement.rrIntervals.map { .number(DecimalText.milliseconds(fromRRInterval: $0, fractionDigits: 3)) }),
        ]
    }

    /// RFC 4180 field: quoted when it holds a comma, quote or line break; arrays space-separated.
    private static func csvField(_ value: JSONLine.Value) -> String {
        let text: String
        switch value {
        case .string(let string): text = string
        case .integer(let number): text = String(number)
        case .boolean(let value): text = value ? "true" : "false"
        case .number(let number): text = number
        case .array(let values): text = values.map(csvField).joined(separator: " ")
        case .object(let line): text = line.text
        case .null: text = ""
        }
        guard text.contains(where: { ",\"\n\r".contains($0) }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
