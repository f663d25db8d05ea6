#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CCrypto
import DurableFile
import Glibc

/// The console's certificate and private key: the operator's (`[web] tls_cert`, `tls_key`), or
/// one the gateway makes on its first start beyond loopback and keeps in the state directory
/// (`web-tls.crt`, `web-tls.key` 0600): self-signed, EC P-256, for the listen address and the
/// box's host name, valid ten years. A browser cannot know a self-signed certificate, so
/// `edge-gateway status` prints its SHA-256 fingerprint for the technician to compare with the
/// one the browser shows before trusting it.
package final class TLSIdentity: @unchecked Sendable {
    /// The gateway's own certificate in the state directory (0644: it is public).
    package static let certificateFile = "web-tls.crt"
    /// Its private key (0600).
    package static let keyFile = "web-tls.key"

    /// `X509 *`, `EVP_PKEY *`: owned, freed at deinit, never changed after init.
    let certificate: OpaquePointer
    let key: OpaquePointer

    private init(certificate: OpaquePointer, key: OpaquePointer) {
        self.certificate = certificate
        self.key = key
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    /// The SHA-256 fingerprint of the certificate, as browsers show it (`AB:CD:…`).
    package var fingerprint: String { Self.fingerprint(of: certificate) }

    private static func fingerprint(of certificate: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        X509_digest(certificate, EVP_sha256(), &digest, &length)
        return digest.prefix(Int(length)).map { ConsolePassword.hex([$0]).uppercased() }.joined(separator: ":")
    }

    // MARK: Loading and making

    /// The operator's certificate and key when both are given, else the gateway's own in
    /// `stateDirectory`, made now (for `names`: IP addresses and host names) if missing.
    package static func load(
        certificate: String?, key: String?, stateDirectory: String, names: [String]
    ) throws(ConsoleSecurityError) -> TLSIdentity {
        if let certificate, let key { return try read(certificate: certificate, key: key) }
        let ownCertificate = "\(stateDirectory)/\(certificateFile)"
        let ownKey = "\(stateDirectory)/\(keyFile)"
        if access(ownCertificate, F_OK) == 0 || access(ownKey, F_OK) == 0 {
            return try read(certificate: ownCertificate, key: ownKey)
        }
        let made = try selfSigned(for: names)
        do {
            try DurableFile.replace(ownKey, with: try pem { PEM_write_bio_PrivateKey($0, made.key, nil, nil, 0, nil, nil) })
            try DurableFile.replace(ownCertificate, with: try pem { PEM_write_bio_X509($0, made.certificate) }, mode: 0o644)
        } catch let error as ConsoleSecurityError {
            throw error
        } catch {
            throw ConsoleSecurityError(.tlsIdentity, "cannot store the console's certificate in \(stateDirectory): \(error)")
        }
        return made
    }

    /// The fingerprint of the certificate at `path`, if it is one (for `status`).
    package static func fingerprint(ofCertificateAt path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), let certificate = withMemoryBIO(data, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            return nil
        }
        defer { X509_free(certificate) }
        return fingerprint(of: certificate)
    }

    private static func read(certificate: String, key: String) throws(ConsoleSecurityError) -> TLSIdentity {
        func contents(_ path: String, _ what: String) throws(ConsoleSecurityError) -> Data {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConsoleSecurityError(
                    .tlsIdentity, "cannot read the console's \(what) \(path) (\(String(cString: strerror(errno)))); check the path and its mode")
            }
            return data
        }
        guard let parsedCertificate = withMemoryBIO(try contents(certificate, "certificate"), { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw ConsoleSecurityError(.tlsIdentity, "\(certificate) holds no PEM certificate: \(OpenSSLError.drain()); give [web] tls_cert a PEM file")
        }
        guard let parsedKey = withMemoryBIO(try contents(key, "private key"), { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            X509_free(parsedCertificate)
            throw ConsoleSecurityError(.tlsIdentity, "\(key) holds no PEM private key: \(OpenSSLError.drain()); give [web] tls_key an unencrypted PEM key")
        }
        let identity = TLSIdentity(certificate: parsedCertificate, key: parsedKey)
        guard X509_check_private_key(parsedCertificate, parsedKey) == 1 else {
            throw ConsoleSecurityError(.tlsIdentity, "the key \(key) does not belong to the certificate \(certificate); give the pair that was issued together")
        }
        return identity
    }

    /// A new key and a self-signed certificate naming `names`.
    static func selfSigned(for names: [String], days: Int = 3650) throws(ConsoleSecurityError) -> TLSIdentity {
        guard let key = egw_ec_p256_key(), let certificate = X509_new() else {
            throw ConsoleSecurityError(.tlsIdentity, "OpenSSL could not make a key: \(OpenSSLError.drain())")
        }
        let identity = TLSIdentity(certificate: certificate, key: key)
        var serial = [UInt8](repeating: 0, count: 8)
        RAND_bytes(&serial, Int32(serial.count))
        let subject = "edge-gateway console"
        let alternativeNames = names.map { (isAddress($0) ? "IP:" : "DNS:") + $0 }
        guard X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), Int(serial.withUnsafeBytes { $0.load(as: UInt32.self) })) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), days * 86_400) != nil,
            X509_set_pubkey(certificate, key) == 1,
            X509_NAME_add_entry_by_txt(X509_get_subject_name(certificate), "CN", MBSTRING_UTF8, subject, -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, X509_get_subject_name(certificate)) == 1,
            alternativeNames.isEmpty || addExtension(certificate, NID_subject_alt_name, alternativeNames.joined(separator: ",")),
            addExtension(certificate, NID_basic_constraints, "critical,CA:FALSE"),
            X509_sign(certificate, key, EVP_sha256()) > 0
        else {
            throw ConsoleSecurityError(.tlsIdentity, "OpenSSL could not make the console's certificate: \(OpenSSLError.drain())")
        }
        return identity
    }

    /// Whether `name` is an IPv4 or IPv6 address rather than a host name.
    private static func isAddress(_ name: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, name, &buffer) == 1 || inet_pton(AF_INET6, name, &buffer) == 1
    }

    private static func addExtension(_ certificate: OpaquePointer, _ nid: Int32, _ value: String) -> Bool {
        guard let extensionValue = X509V3_EXT_conf_nid(nil, nil, nid, value) else { return false }
        defer { X509_EXTENSION_free(extensionValue) }
        return X509_add_ext(certificate, extensionValue, -1) == 1
    }

    // MARK: PEM

    private static func pem(_ write: (OpaquePointer) -> Int32) throws(ConsoleSecurityError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw ConsoleSecurityError(.cryptoFailed, "OpenSSL could not allocate: \(OpenSSLError.drain())") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw ConsoleSecurityError(.tlsIdentity, "OpenSSL could not write PEM: \(OpenSSLError.drain())") }
        var bytes: UnsafeMutablePointer<CChar>?
        let count = egw_bio_memory(bio, &bytes)
        guard let bytes, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// What `read` makes of `data` through a memory BIO (a PEM reader).
    private static func withMemoryBIO(_ data: Data, _ read: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        let bytes = Array(data)
        return bytes.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }
}
