import GATTHeartRate
import OutputFormats

/// The result of decoding one frame, rendered for people or for machines.
package struct FrameReport {
    /// What a frame decoded to.
    enum Content {
        case heartRate(HeartRateMeasurement)
        case location(BodySensorLocation)
        case battery(BatteryLevel)
    }

    /// A decoded frame and how many bytes past its last field were dropped.
    struct Decoded {
        let content: Content
        let ignoredTrailingBytes: Int
    }

    /// The frame as given (canonical hex when it parsed, the original text when it did not).
    let hex: String
    /// The decoded frame, or why there is none.
    let outcome: Result<Decoded, FrameReportError>

    /// Parses and decodes `text` as a value of `characteristic`.
    package init(text: String, characteristic: DecodableCharacteristic) {
        let bytes: [UInt8]
        do {
            bytes = try HexFrame.parse(text)
        } catch {
            hex = text
            outcome = .failure(FrameReportError(code: error.code.rawValue, message: error.message))
            return
        }
        hex = HexFrame.format(bytes)
        do {
            outcome = .success(try Self.decode(bytes, as: characteristic))
        } catch {
            outcome = .failure(FrameReportError(code: error.code, message: error.description))
        }
    }

    private static func decode(
        _ bytes: [UInt8], as characteristic: DecodableCharacteristic
    ) throws(FrameDecodingError) -> Decoded {
        switch characteristic {
        case .heartRateMeasurement:
            let decoded = try HeartRateMeasurement.decode(bytes)
            return Decoded(content: .heartRate(decoded.value), ignoredTrailingBytes: decoded.ignoredTrailingBytes)
        case .bodySensorLocation:
            let decoded = try BodySensorLocation.decode(bytes)
            return Decoded(content: .location(decoded.value), ignoredTrailingBytes: decoded.ignoredTrailingBytes)
        case .batteryLevel:
            let decoded = try BatteryLevel.decode(bytes)
            return Decoded(content: .battery(decoded.value), ignoredTrailingBytes: decoded.ignoredTrailingBytes)
        }
    }

    /// `true` when the frame did not decode.
    package var isMalformed: Bool {
        if case .failure = outcome { return true }
        return false
    }

    /// One line for a person: `78 bpm  contact: not supported  RR: 705.1 ms, 695.3 ms`.
    package var humanLine: String {
        switch outcome {
        case .failure(let failed):
            return "malformed \(hex.isEmpty ? "(empty)" : hex): \(failed.message) [\(failed.code)]"
        case .success(let decoded):
            var parts: [String]
            switch decoded.content {
            case .heartRate(let measurement):
                parts = ["\(measurement.bpm) bpm", "contact: \(Self.humanContact(measurement.contact))"]
                if let energy = measurement.energyExpended { parts.append("energy: \(energy) kJ") }
                if !measurement.rrIntervals.isEmpty {
                    let values = measurement.rrIntervals.map {
                        DecimalText.milliseconds(fromRRInterval: $0, fractionDigits: 1) + " ms"
                    }
                    parts.append("RR: " + values.joined(separator: ", "))
                }
            case .location(let location):
                parts = ["location: \(location)"]
            case .battery(let level):
                parts = ["battery: \(level)"]
            }
            if decoded.ignoredTrailingBytes > 0 {
                let count = decoded.ignoredTrailingBytes
                parts.append("(\(count) trailing byte\(count == 1 ? "" : "s") ignored)")
            }
            return parts.joined(separator: "  ")
        }
    }

    /// One JSON object in the documented key order.
    package var jsonLine: String {
        var line = JSONLine()
        line.add("hex", .string(hex))
        switch outcome {
        case .failure(let failed):
            line.add("error", .string(failed.message))
            line.add("code", .string(failed.code))
        case .success(let decoded):
            switch decoded.content {
            case .heartRate(let measurement):
                line.add("bpm", .integer(Int(measurement.bpm)))
                line.add("contact", .string(measurement.contact.rawValue))
                line.add("energy_expended_kj", measurement.energyExpended.map { .integer(Int($0)) } ?? .null)
                line.add("rr_intervals", .array(measurement.rrIntervals.map { .integer(Int($0)) }))
                line.add(
                    "rr_intervals_ms",
                    .array(
                        measurement.rrIntervals.map {
                            .number(DecimalText.milliseconds(fromRRInterval: $0, fractionDigits: 3))
                        }))
                line.add("ignored_trailing_bytes", .integer(decoded.ignoredTrailingBytes))
            case .location(let location):
                line.add("location", .string(location.description))
                line.addIgnoredTrailingBytesIfAny(decoded.ignoredTrailingBytes)
            case .battery(let level):
                line.add("battery_percent", .integer(Int(level.percent)))
                line.addIgnoredTrailingBytesIfAny(decoded.ignoredTrailingBytes)
            }
        }
        return line.text
    }

    private static func humanContact(_ contact: SensorContact) -> String {
        switch contact {
        case .notSupported: "not supported"
        case .notDetected: "not detected"
        case .detected: "detected"
        }
    }
}

/// A frame that did not decode: a stable code and a sentence.
struct FrameReportError: Error {
    let code: String
    let message: String
}

extension JSONLine {
    /// Single-byte values keep their documented two-key form unless bytes were dropped.
    fileprivate mutating func addIgnoredTrailingBytesIfAny(_ count: Int) {
        if count > 0 { add("ignored_trailing_bytes", .integer(count)) }
    }
}
