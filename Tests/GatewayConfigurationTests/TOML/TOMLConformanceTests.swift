import Foundation
@testable import GatewayConfiguration
import Testing

/// The gateway's TOML reader against toml-test (`Fixtures/toml-test`: the TOML 1.0 files of
/// toml-lang/toml-test at d168c2a): every valid file reads to the value toml-test expects, type
/// by type, and every invalid file is refused with a ``TOMLSyntaxError`` that names a line of it.
@Suite("Configuration: TOML reader against toml-test")
struct TOMLConformanceTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/toml-test/tests")

    /// The `.toml` files under `folder` (`valid` or `invalid`) that toml-test lists for TOML 1.0.
    static func files(in folder: String) throws -> [String] {
        let list = try String(contentsOf: corpus.appendingPathComponent("files-toml-1.0.0"), encoding: .utf8)
        return list.split(separator: "\n").map(String.init).filter { $0.hasPrefix(folder + "/") && $0.hasSuffix(".toml") }
    }

    static func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(file)))
    }

    @Test("every valid TOML 1.0 file of toml-test reads to the values it expects, with their types")
    func valid() throws {
        let files = try Self.files(in: "valid")
        #expect(files.count == 210)
        var passed = 0
        for file in files {
            let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appendingPathComponent(file.dropLast(5) + ".json")))
            let bytes = try Self.bytes(file)
            do {
                let table = try TOMLParser.parse(utf8: bytes)
                if let difference = Self.difference(.table(table), expected, at: "") {
                    Issue.record("\(file): \(difference)")
                } else {
                    passed += 1
                }
            } catch {
                Issue.record("\(file): refused at \(error.line):\(error.column): \(error.message)")
            }
        }
        print("toml-test (TOML 1.0): \(passed) of \(files.count) valid files read as expected")
    }

    @Test("every invalid TOML 1.0 file of toml-test is refused, with a message and a line inside the file")
    func invalid() throws {
        let files = try Self.files(in: "invalid")
        #expect(files.count == 499)
        var refused = 0
        for file in files {
            let bytes = try Self.bytes(file)
            do {
                let table = try TOMLParser.parse(utf8: bytes)
                Issue.record("\(file): accepted, as \(table)")
            } catch {
                let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
                if (1 ... lines).contains(error.line), error.column >= 1, !error.message.isEmpty {
                    refused += 1
                } else {
                    Issue.record("\(file): refused at \(error.line):\(error.column) (the file has \(lines) lines): \(error.message)")
                }
            }
        }
        print("toml-test (TOML 1.0): \(refused) of \(files.count) invalid files refused")
    }

    /// Where `value` differs from `expected`, toml-test's tagged JSON for it; nil if nowhere.
    static func difference(_ value: TOMLValue, _ expected: Any, at path: String) -> String? {
        if let tagged = expected as? [String: String], tagged.count == 2, let type = tagged["type"], let text = tagged["value"] {
            return matches(value, type: type, text: text) ? nil : "\(path): read \(value), expected \(type) \(text)"
        }
        if let object = expected as? [String: Any] {
            guard case .table(let table) = value else { return "\(path): read \(value), expected a table" }
            guard Set(table.keys) == Set(object.keys), table.keys.count == object.count else {
                return "\(path): read the keys \(table.keys.sorted()), expected \(object.keys.sorted())"
            }
            return object.keys.sorted().lazy.compactMap { difference(table[$0]!, object[$0]!, at: path + "." + $0) }.first
        }
        if let array = expected as? [Any] {
            guard case .array(let elements) = value, elements.count == array.count else { return "\(path): read \(value), expected \(array.count) elements" }
            return zip(elements, array).enumerated().lazy.compactMap { difference($1.0, $1.1, at: "\(path)[\($0)]") }.first
        }
        return "\(path): unexpected JSON \(expected)"
    }

    /// `value` is the `type` and value that toml-test writes as `text`. Floats compare as
    /// numbers (NaN to NaN); date-times with an offset as instants, the local kinds field by
    /// field, as toml-test does after parsing both sides.
    static func matches(_ value: TOMLValue, type: String, text: String) -> Bool {
        switch (type, value) {
        case ("string", .string(let string)): return string == text
        case ("integer", .integer(let integer)): return Int(text) == integer
        case ("bool", .boolean(let flag)): return String(flag) == text
        case ("float", .float(let number)):
            guard let wanted = Double(text) else { return false }
            return number == wanted || number.isNaN && wanted.isNaN
        case ("datetime", .dateTime(let moment)), ("datetime-local", .dateTime(let moment)), ("date-local", .dateTime(let moment)),
            ("time-local", .dateTime(let moment)):
            guard let wanted = dateTime(text), kind(of: wanted) == type, kind(of: moment) == type else { return false }
            return type == "datetime" ? instant(moment) == instant(wanted) : moment == wanted
        default: return false
        }
    }

    /// toml-test's name for the kind of `moment`.
    static func kind(of moment: TOMLDateTime) -> String {
        switch (moment.date, moment.time, moment.offset) {
        case (.some, .some, .some): "datetime"
        case (.some, .some, nil): "datetime-local"
        case (.some, nil, nil): "date-local"
        default: "time-local"
        }
    }

    /// An RFC 3339 text from toml-test's JSON, read here rather than by the reader under test.
    static func dateTime(_ text: String) -> TOMLDateTime? {
        let pattern = /(?:(\d{4})-(\d{2})-(\d{2}))?[T ]?(?:(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?/.ignoresCase()
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        let number = { (field: Substring?) in field.flatMap { Int($0) } }
        let date = number(match.1).map { TOMLDateTime.LocalDate(year: $0, month: number(match.2)!, day: number(match.3)!) }
        let time = number(match.4).map { hour in
            let nanosecond = Int(((match.7 ?? "") + "000000000").prefix(9))!
            return TOMLDateTime.LocalTime(hour: hour, minute: number(match.5)!, second: number(match.6)!, nanosecond: nanosecond)
        }
        let offset = match.8.map { zone -> Int in
            guard zone.count == 6, let hours = Int(zone.dropFirst().prefix(2)), let minutes = Int(zone.suffix(2)) else { return 0 }
            return (zone.first == "-" ? -1 : 1) * (hours * 60 + minutes)
        }
        return TOMLDateTime(date: date, time: time, offset: offset)
    }

    /// The moment an offset date-time names: seconds since 0000-03-01 UTC and nanoseconds.
    static func instant(_ moment: TOMLDateTime) -> [Int] {
        guard let date = moment.date, let time = moment.time, let offset = moment.offset else { return [] }
        // Days from civil (H. Hinnant): a year that starts in March puts the leap day last.
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1
        let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second - offset * 60
        return [seconds, time.nanosecond]
    }
}
