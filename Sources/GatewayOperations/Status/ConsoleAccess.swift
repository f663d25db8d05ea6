import ConsoleSecurity
import GatewayConfiguration

/// How the console in the browser is reached, for `status`: its address, and beyond loopback
/// whether a password is set and the fingerprint of the certificate, which the technician
/// compares with the one the browser shows before trusting a self-signed certificate.
struct ConsoleAccess: Equatable {
    let listen: String
    /// Served over TLS with a password (any address but loopback).
    let secured: Bool
    let passwordSet: Bool
    /// SHA-256 of the certificate in use; nil before the daemon made its own, or when unreadable.
    let certificateFingerprint: String?

    /// nil when the console is off.
    init?(_ web: GatewayConfiguration.Web, stateDirectory: String) {
        guard let address = ListenAddress(web.listen) else { return nil }
        listen = web.listen
        secured = !address.isLoopback
        passwordSet = (try? ConsolePassword.load(stateDirectory: stateDirectory)) != nil
        let certificate = web.tlsCertificate ?? "\(stateDirectory)/\(TLSIdentity.certificateFile)"
        certificateFingerprint = secured ? TLSIdentity.fingerprint(ofCertificateAt: certificate) : nil
    }

    /// `https://0.0.0.0:8443/ (TLS …)`, as `status` prints it.
    var summary: String {
        guard secured else { return "http://\(listen)/ (loopback, no password; from another machine through an SSH tunnel)" }
        let password = passwordSet ? "password set" : "NO password set: run `edge-gateway web set-password`"
        let certificate = certificateFingerprint.map { "certificate SHA-256 \($0)" } ?? "no certificate yet (made at the daemon's first start)"
        return "https://\(listen)/ (TLS, \(certificate); \(password))"
    }
}
