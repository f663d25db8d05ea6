import DurableFile
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GATTHeartRate
import OutputFormats

/// The bound straps, in `<state-dir>/sensors.json`, replaced atomically on every change so a
/// power cut never loses or half-writes a binding.
package struct SensorBindingStore: Sendable {
    /// The file's layout, versioned so later releases can migrate it.
    private struct File: Codable {
        var version = 1
        var sensors: [SensorBinding]
    }

    /// The file's name in the state directory.
    static let fileName = "sensors.json"

    let directory: String
    var path: String { directory + "/" + Self.fileName }

    /// The store of the state directory `directory`.
    package init(directory: String) {
        self.directory = directory
    }

    /// The bindings, in the order they were made; none when the file does not exist yet.
    package func load() throws(SensorBindingError) -> [SensorBinding] {
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            throw SensorBindingError(code: .unreadable, message: "cannot read \(path): check its owner and mode")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(File.self, from: data).sensors
        } catch {
            throw SensorBindingError(
                code: .unreadable, message: "\(path) is damaged (\(error)); fix or remove it, then bind the straps again with `edge-gateway pair`")
        }
    }

    /// Adds `binding`, replacing any earlier binding of the same strap.
    package func bind(_ binding: SensorBinding) throws(SensorBindingError) {
        var sensors = try load().filter { $0.address != binding.address }
        sensors.append(binding)
        try save(sensors)
    }

    /// Removes the strap's binding; returns whether there was one.
    package func unbind(_ address: BluetoothAddress) throws(SensorBindingError) -> Bool {
        let sensors = try load()
        let remaining = sensors.filter { $0.address != address }
        guard remaining.count != sensors.count else { return false }
        try save(remaining)
        return true
    }

    private func save(_ sensors: [SensorBinding]) throws(SensorBindingError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try DurableFile.replace(path, with: try encoder.encode(File(sensors: sensors)))
        } catch {
            throw SensorBindingError(code: .writeFailed, message: "cannot save \(path): \(error); check free space and permissions of the state directory")
        }
    }
}

/// Why the bindings could not be read or written.
package struct SensorBindingError: CodedError {
    /// Stable identifiers.
    package enum Code: String, Sendable {
        /// The file is there but cannot be read or decoded.
        case unreadable = "sensors.unreadable"
        /// The new bindings could not be saved; the old file is untouched.
        case writeFailed = "sensors.write-failed"
    }

    /// The stable identifier.
    package let code: Code
    /// Which file and what went wrong, with what the operator can check.
    package let message: String
}
