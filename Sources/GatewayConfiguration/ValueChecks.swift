#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DurableFile
import Uplink

/// The checks of string keys that need more than a type: each refuses a bad value or returns
/// the value to store. Where another module already validates the same thing (server URL,
/// upload resolution) the check calls it, so the CLI and the daemon cannot disagree.
enum ValueChecks {
    /// `""` becomes the host name; otherwise printable text of at most 64 characters.
    @Sendable static func gatewayName(_ text: String) throws(SettingValueError) -> String {
        if text.isEmpty { return ProcessInfo.processInfo.hostName }
        guard text.count <= 64, text.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
            throw .notAllowed(detail: nil)
        }
        return text
    }

    /// Any non-empty path without a NUL character.
    @Sendable static func stateDirectory(_ text: String) throws(SettingValueError) -> String {
        guard !text.isEmpty, !text.contains("\0") else { throw .notAllowed(detail: nil) }
        return text
    }

    /// `hci` followed by digits, as BlueZ names adapters under `/org/bluez/`.
    @Sendable static func adapter(_ text: String) throws(SettingValueError) -> String {
        let digits = text.dropFirst(3)
        guard text.hasPrefix("hci"), !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCIIDigit) else {
            throw .notAllowed(detail: nil)
        }
        return text
    }

    /// `all`, or adapter names separated by commas (each once); returned with single spaces.
    @Sendable static func adapters(_ text: String) throws(SettingValueError) -> String {
        if text == "all" { return text }
        let names = list(text)
        guard !names.isEmpty else { throw .notAllowed(detail: nil) }
        for name in names { _ = try adapter(name) }
        guard Set(names).count == names.count else { throw .notAllowed(detail: "an adapter is named twice") }
        return names.joined(separator: ", ")
    }

    /// A check of `""`, or `hciN=count` pairs separated by commas, each count in `counts`.
    static func countsByAdapter(_ counts: ClosedRange<Int>) -> @Sendable (String) throws(SettingValueError) -> String {
        { text throws(SettingValueError) in try countsByAdapter(text, counts) }
    }

    private static func countsByAdapter(_ text: String, _ counts: ClosedRange<Int>) throws(SettingValueError) -> String {
        var pairs: [String] = []
        for item in list(text) {
            guard let (name, count) = pair(item), counts.contains(count) else {
                throw .notAllowed(detail: "\"\(item)\" is not hciN=count")
            }
            pairs.append("\(try adapter(name))=\(count)")
        }
        return pairs.joined(separator: ", ")
    }

    /// `name=count` read, or nil.
    static func pair(_ item: String) -> (String, Int)? {
        let parts = item.split(separator: "=", omittingEmptySubsequences: false).map(trimmed)
        guard parts.count == 2, let count = Int(parts[1]) else { return nil }
        return (parts[0], count)
    }

    /// The non-empty items of a comma-separated list, trimmed.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map(trimmed).filter { !$0.isEmpty }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// What `Uplink.ServerAddress` accepts: https://, or http:// to a loopback host.
    @Sendable static func baseURL(_ text: String) throws(SettingValueError) {
        do throws(UplinkError) {
            _ = try ServerAddress(baseURL: text)
        } catch {
            throw .notAllowed(detail: error.message)
        }
    }

    /// An absolute URL path: starts with `/`, no spaces, query or fragment.
    @Sendable static func fhirPath(_ text: String) throws(SettingValueError) -> String {
        guard text.hasPrefix("/"), !text.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" }) else {
            throw .notAllowed(detail: nil)
        }
        return text
    }

    /// What `Uplink.UploadResolution(parsing:)` accepts; kept as written.
    @Sendable static func resolution(_ text: String) throws(SettingValueError) -> String {
        do throws(UplinkError) {
            _ = try UploadResolution(parsing: text)
        } catch {
            throw .notAllowed(detail: nil)
        }
        return text
    }

    /// A file that exists and can be read now (its PEM content is checked when the uplink
    /// loads it).
    @Sendable static func caFile(_ text: String) throws(SettingValueError) {
        try readableFile(text)
        do throws(UplinkError) {
            try PEMTrustRoots.check(text)
        } catch {
            throw .notAllowed(detail: "it holds no readable PEM certificate")
        }
    }

    /// `""` (off), `host:port` or `[ipv6]:port` with a port from 1 to 65535.
    @Sendable static func listen(_ text: String) throws(SettingValueError) -> String {
        guard !text.isEmpty else { return text }
        guard ListenAddress(text) != nil else { throw .notAllowed(detail: nil) }
        return text
    }

    /// A file the gateway's user can read (a key or certificate, parsed when the daemon starts).
    @Sendable static func readableFile(_ text: String) throws(SettingValueError) {
        switch FileKind(atPath: text) {
        case .missing: throw .notAllowed(detail: "no such file")
        case .directory: throw .notAllowed(detail: "it is a directory")
        case .other: break
        }
        guard FileManager.default.isReadableFile(atPath: text) else { throw .notAllowed(detail: "the file is not readable") }
    }
}

extension Character {
    /// `0`–`9` only (not other scripts' digits).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
