import Foundation
import GatewayTestSupport
import Testing
@testable import Uplink

/// The hand-written JSON of the upload is byte for byte what `JSONEncoder` wrote before it
/// (`[.sortedKeys, .withoutEscapingSlashes]`, and for the OMH payload every non-ASCII character
/// escaped afterwards), so a gateway upgraded mid-outage re-sends identical Observations.
@Suite("Uplink JSON writer")
struct JSONBytesTests {
    static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// Characters JSON escapes, the ones it need not, and some outside the Basic Multilingual Plane.
    static let awkward: [Unicode.Scalar] =
        (0 ..< 0x20).map { Unicode.Scalar(UInt8($0)) }
        + ["\"", "\\", "/", "\u{7F}", "\u{80}", "\u{9F}", "é", "–", "\u{2028}", "\u{202E}", "\u{FEFF}", "♥", "𝄞", "😀", "a", "Z", "0", " "]

    static func randomString(_ random: inout SplitMix64) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0 ..< Int.random(in: 0 ... 24, using: &random) {
            if Bool.random(using: &random) {
                text.append(awkward.randomElement(using: &random)!)
            } else if let scalar = Unicode.Scalar(UInt32.random(in: 0 ... 0x10FFFF, using: &random)) {
                text.append(scalar)
            }
        }
        return String(text)
    }

    /// What the encoder did to JSONEncoder's output before: each non-ASCII character as `\uXXXX`.
    static func asciiEscaped(_ utf8JSON: Data) -> [UInt8] {
        var output: [UInt8] = []
        for scalar in String(decoding: utf8JSON, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                output.append(UInt8(scalar.value))
            } else {
                for unit in String(scalar).utf16 {
                    let digits = String(unit, radix: 16)
                    output += Array(("\\u" + String(repeating: "0", count: 4 - digits.count) + digits).utf8)
                }
            }
        }
        return output
    }

    @Test("strings with every control character, quotes, slashes and non-BMP characters are escaped as JSONEncoder escapes them")
    func stringsMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_0016)
        for _ in 0 ..< 2_000 {
            let text = Self.randomString(&random)
            let expected = try Self.reference.encode([text])
            var plain = JSONBytes()
            plain.beginArray()
            plain.string(text)
            plain.endArray()
            #expect(plain.bytes == Array(expected), "\(text.debugDescription)")
            var ascii = JSONBytes(asciiOnly: true)
            ascii.beginArray()
            ascii.string(text)
            ascii.endArray()
            #expect(ascii.bytes == Self.asciiEscaped(expected), "\(text.debugDescription)")
            #expect(ascii.bytes.allSatisfy { $0 < 0x80 })
        }
    }

    @Test("rates, window statistics, RR milliseconds and arbitrary finite doubles print as JSONEncoder prints them")
    func numbersMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_0017)
        var values: [Double] = [0, -0.0, 1e21, 1e-7, 3e15, 1e16, 2.5e-5, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        values += (0 ... 65_535).filter { $0 % 97 == 0 || $0 < 300 }.map(Double.init)
        values += (0 ..< 2_000).map { _ in Double(UInt16.random(in: 1 ... UInt16.max, using: &random)) * 1000 / 1024 }
        values += (0 ..< 2_000).map { _ in Double(UInt16.random(in: 30 ... 230, using: &random)) / Double(Int.random(in: 1 ... 60, using: &random)) }
        values += (0 ..< 2_000).compactMap { _ in
            let value = Double(bitPattern: UInt64.random(in: 0 ... UInt64.max, using: &random))
            return value.isFinite ? value : nil
        }
        for value in values {
            var json = JSONBytes()
            json.beginArray()
            try json.number(value)
            json.endArray()
            #expect(json.bytes == Array(try Self.reference.encode([value])), "\(value)")
        }
    }

    @Test("a non-finite number is refused with uplink.unencodable-value rather than written as invalid JSON")
    func nonFiniteNumbersAreRefused() {
        for value in [Double.nan, .infinity, -.infinity] {
            var json = JSONBytes()
            let error = #expect(throws: UplinkError.self) { try json.number(value) }
            #expect(error?.code == .unencodableValue)
            #expect(json.bytes.isEmpty)
        }
    }

    @Test("every Observation and Bundle the encoder builds, at every resolution, equals JSONEncoder's bytes for the same values")
    func uploadsMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_0018)
        let resolutions: [UploadResolution] = [.everySample, .window(seconds: 60), .window(seconds: 300)]
        for round in 0 ..< 24 {
            let options = EncodingOptions(
                resolution: resolutions[round % resolutions.count], includeRRIntervals: round % 2 == 0,
                dropNoContact: round % 4 < 2,
                defaultDatasheet: SensorDatasheet(manufacturer: Self.randomString(&random), model: round % 3 == 0 ? nil : "H10"))
            let encoder = UploadEncoder(
                configuration: EncoderConfiguration(
                    defaultPatientID: Self.randomString(&random), deviceID: Self.randomString(&random), options: options))
            let samples = Samples.random(count: 40, seed: UInt64(round))
            let observations = try encoder.encode(samples).items.map(\.observation)
            #expect(!observations.isEmpty)
            for observation in observations {
                try expectPayloadMatchesJSONEncoder(observation)
            }
            #expect(try encoder.bundleData(observations) == Self.reference.encode(FHIRBatchBundle(observations: observations)))
        }
    }

    private func expectPayloadMatchesJSONEncoder(_ observation: FHIRObservation) throws {
        let base64 = try #require(observation.valueAttachment.data)
        let payload = try #require(Data(base64Encoded: base64))
        let reencoded: Data
        if observation.code.coding.first?.code == OMHSchemaID.rrInterval.code {
            reencoded = try Self.reference.encode(JSONDecoder().decode(OMHDataPoint<RRIntervalBody>.self, from: payload))
        } else {
            reencoded = try Self.reference.encode(JSONDecoder().decode(OMHDataPoint<HeartRateBody>.self, from: payload))
        }
        #expect(Array(payload) == Self.asciiEscaped(reencoded))
    }
}
