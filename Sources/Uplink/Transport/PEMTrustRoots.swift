#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The check `ca_file` gets when the configuration is loaded: the file must hold at least one
/// PEM certificate block whose base64 decodes to a DER structure. So a damaged file stops the
/// daemon with a configuration error (which systemd does not restart in a loop) instead of
/// failing every upload later. OpenSSL still judges the certificates themselves at each TLS
/// handshake.
package enum PEMTrustRoots {
    private static let begin = "-----BEGIN CERTIFICATE-----"
    private static let end = "-----END CERTIFICATE-----"

    /// Throws `invalidCAFile`, naming `path`, unless it holds a readable PEM certificate.
    package static func check(_ path: String) throws(UplinkError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UplinkError(.invalidCAFile, "ca_file \(path) could not be read (\(error)); fix the path or the file's permissions")
        }
        let blocks = certificateBlocks(in: text)
        guard !blocks.isEmpty else {
            throw UplinkError(.invalidCAFile, "ca_file \(path) holds no PEM certificate (no \(begin) block); fix the path or the file")
        }
        for (index, block) in blocks.enumerated() {
            guard let der = Data(base64Encoded: String(block), options: .ignoreUnknownCharacters), der.first == 0x30, der.count > 64 else {
                throw UplinkError(
                    .invalidCAFile, "ca_file \(path): certificate \(index + 1) is not valid base64 DER; fix the file (export the CA again as PEM)")
            }
        }
    }

    /// The base64 text between each BEGIN/END CERTIFICATE pair.
    static func certificateBlocks(in text: String) -> [Substring] {
        var blocks: [Substring] = []
        var rest = text[...]
        while let start = rest.firstRange(of: begin), let stop = rest[start.upperBound...].firstRange(of: end) {
            blocks.append(rest[start.upperBound ..< stop.lowerBound])
            rest = rest[stop.upperBound...]
        }
        return blocks
    }
}
