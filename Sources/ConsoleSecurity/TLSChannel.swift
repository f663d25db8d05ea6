import CCrypto

/// The console's TLS server side, for a server that does its own socket I/O: OpenSSL never
/// touches the socket. Each connection's `TLSChannel` takes the bytes the socket gave
/// (`receive`) and returns what they decrypt to and what must go back (the handshake), and
/// turns a reply into records (`seal`); the server sends and buffers raw bytes as it does
/// without TLS, so its deadlines, caps and non-blocking sends stay the same.
///
/// TLS 1.2 and 1.3 only, OpenSSL's default ciphers, no session resumption (a handful of
/// browsers, one request per connection, a handshake each: cheap against a second of PBKDF2).
package final class TLSContext: @unchecked Sendable {
    /// `SSL_CTX *`, configured at init and only read after (OpenSSL allows sharing it then).
    private let context: OpaquePointer
    /// Kept alive as long as the context uses its certificate and key.
    private let identity: TLSIdentity

    /// A server context serving `identity`'s certificate.
    package init(identity: TLSIdentity) throws(ConsoleSecurityError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw ConsoleSecurityError(.cryptoFailed, "OpenSSL could not make a TLS context: \(OpenSSLError.drain())")
        }
        self.context = context
        self.identity = identity
        guard egw_tls_minimum_1_2(context) == 1, SSL_CTX_use_certificate(context, identity.certificate) == 1,
            SSL_CTX_use_PrivateKey(context, identity.key) == 1, SSL_CTX_check_private_key(context) == 1
        else {
            throw ConsoleSecurityError(.tlsIdentity, "OpenSSL refused the console's certificate and key: \(OpenSSLError.drain())")
        }
        egw_tls_no_tickets_no_renegotiation(context)
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A channel for one accepted connection.
    package func channel() throws(ConsoleSecurityError) -> TLSChannel {
        guard let ssl = SSL_new(context), let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            throw ConsoleSecurityError(.cryptoFailed, "OpenSSL could not start a TLS connection: \(OpenSSLError.drain())")
        }
        egw_bio_retry_when_empty(incoming)
        SSL_set_bio(ssl, incoming, outgoing)
        SSL_set_accept_state(ssl)
        return TLSChannel(ssl: ssl, incoming: incoming, outgoing: outgoing)
    }
}

/// One connection's TLS state. Not thread-safe: the server uses it on its one queue.
package final class TLSChannel {
    private let ssl: OpaquePointer
    /// Owned by `ssl` (SSL_set_bio): what the client sent, and what goes to it.
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer

    fileprivate init(ssl: OpaquePointer, incoming: OpaquePointer, outgoing: OpaquePointer) {
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
    }

    deinit {
        SSL_free(ssl)
    }

    /// What `bytes` from the socket decrypt to (empty during the handshake), and the bytes
    /// to send back now; throws when the client does not speak TLS or the handshake fails.
    package func receive(_ bytes: some Collection<UInt8>) throws(ConsoleSecurityError) -> (plaintext: [UInt8], reply: [UInt8]) {
        let data = Array(bytes)
        _ = data.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
        var plaintext: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                plaintext += buffer[..<Int(count)]
                continue
            }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_ZERO_RETURN { break }
            let reason = OpenSSLError.drain()
            throw ConsoleSecurityError(.cryptoFailed, "a TLS connection failed: \(reason) (a client speaking plain HTTP to the TLS console?)")
        }
        return (plaintext, pending())
    }

    /// `plaintext` as TLS records to send.
    package func seal(_ plaintext: [UInt8]) -> [UInt8] {
        guard !plaintext.isEmpty else { return [] }
        _ = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        return pending()
    }

    /// The close_notify alert, sent before the server closes the connection.
    package func close() -> [UInt8] {
        SSL_shutdown(ssl)
        return pending()
    }

    private func pending() -> [UInt8] {
        let count = Int(BIO_ctrl_pending(outgoing))
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
        return Array(bytes.prefix(max(0, Int(read))))
    }
}
