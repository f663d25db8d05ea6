import ConsoleSecurity
import GatewayConfiguration
import Glibc

/// What the console needs before it may listen beyond loopback: a password set with
/// `edge-gateway web set-password`, and a certificate (the operator's `[web] tls_cert` and
/// `tls_key`, or the gateway's own, made on the first start). `edge-gateway run` checks it
/// before starting (exit 78 with the fix); the daemon then builds the TLS context from it.
package enum ConsoleSecuritySetup {
    /// The TLS context for `web`'s listener: nil on loopback (served without TLS or password);
    /// throws what is missing otherwise.
    package static func prepare(_ web: GatewayConfiguration.Web, stateDirectory: String) throws(ConsoleSecurityError) -> TLSContext? {
        guard let address = ListenAddress(web.listen), !address.isLoopback else { return nil }
        guard (web.tlsCertificate == nil) == (web.tlsKey == nil) else {
            throw ConsoleSecurityError(
                .tlsIdentity, "[web] tls_cert and tls_key go together: set both (a PEM certificate and its key) or neither (the gateway's own)")
        }
        guard try ConsolePassword.load(stateDirectory: stateDirectory) != nil else {
            throw ConsoleSecurityError(
                .passwordMissing,
                "[web] listen = \"\(web.listen)\" serves the console beyond this machine, which needs a password: set one with `edge-gateway web set-password` (or listen on 127.0.0.1 and use an SSH tunnel)"
            )
        }
        let identity = try TLSIdentity.load(
            certificate: web.tlsCertificate, key: web.tlsKey, stateDirectory: stateDirectory, names: names(for: address))
        return try TLSContext(identity: identity)
    }

    /// What a certificate the gateway makes names: the listen address unless it is a wildcard,
    /// the host name and its mDNS name (`NAME.local`).
    static func names(for address: ListenAddress) -> [String] {
        var names: [String] = []
        if address.host != "0.0.0.0" && address.host != "::" && !address.host.isEmpty { names.append(address.host) }
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !host.isEmpty && !names.contains(host) { names += [host, host.contains(".") ? nil : "\(host).local"].compactMap { $0 } }
        }
        return names
    }
}
