#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CCrypto
import DurableFile
import Glibc

/// The console's password as `edge-gateway web set-password` keeps it: never the password,
/// only a PBKDF2-HMAC-SHA256 hash of it with a random salt, from the OpenSSL the box already
/// links through libcurl. 600,000 iterations (OWASP's figure for this hash) make one guess cost
/// 0.16 s of CPU on the 2-core x86 build box (several times that on a Raspberry Pi) and no
/// memory: a login flood cannot push the daemon out of RAM, and the console lets one guess run
/// at a time.
///
/// The file, `web-password` in the state directory (0600), holds one line:
/// `pbkdf2-sha256$ITERATIONS$SALT-HEX$HASH-HEX`.
package struct ConsolePassword: Sendable, Equatable {
    /// The file in the state directory.
    package static let fileName = "web-password"
    /// OWASP's figure for PBKDF2-HMAC-SHA256 (2023).
    package static let defaultIterations = 600_000
    /// Fewer characters than this are refused: the console may face a clinic's whole network.
    package static let minimumLength = 10

    let iterations: Int
    let salt: [UInt8]
    let hash: [UInt8]

    /// A hash of `password` with a fresh salt; refuses one shorter than `minimumLength`.
    package static func hashing(_ password: String, iterations: Int = defaultIterations) throws(ConsoleSecurityError) -> ConsolePassword {
        guard password.count >= minimumLength else {
            throw ConsoleSecurityError(.passwordRefused, "the password has \(password.count) characters; use at least \(minimumLength)")
        }
        var salt = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&salt, Int32(salt.count)) == 1 else {
            throw ConsoleSecurityError(.cryptoFailed, "OpenSSL gave no random salt: \(OpenSSLError.drain())")
        }
        return ConsolePassword(iterations: iterations, salt: salt, hash: try derive(password, salt: salt, iterations: iterations))
    }

    /// Whether `candidate` is the password (compared in constant time).
    package func matches(_ candidate: String) -> Bool {
        guard let derived = try? Self.derive(candidate, salt: salt, iterations: iterations) else { return false }
        return CRYPTO_memcmp(derived, hash, hash.count) == 0
    }

    /// The file's line.
    package var encoded: String {
        "pbkdf2-sha256$\(iterations)$\(Self.hex(salt))$\(Self.hex(hash))"
    }

    /// Reads a line `encoded` wrote; nil for anything else.
    package init?(encoded: String) {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "pbkdf2-sha256", let iterations = Int(fields[1]), (1 ... 100_000_000).contains(iterations),
            let salt = Self.bytes(hex: fields[2]), salt.count >= 8, let hash = Self.bytes(hex: fields[3]), hash.count == 32
        else { return nil }
        self.init(iterations: iterations, salt: salt, hash: hash)
    }

    init(iterations: Int, salt: [UInt8], hash: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.hash = hash
    }

    // MARK: The file

    /// The password stored in `stateDirectory`; nil when none was set.
    package static func load(stateDirectory: String) throws(ConsoleSecurityError) -> ConsolePassword? {
        let path = "\(stateDirectory)/\(fileName)"
        guard let data = FileManager.default.contents(atPath: path) else {
            guard access(path, F_OK) != 0 else {
                throw ConsoleSecurityError(
                    .passwordUnreadable, "cannot read \(path) (\(String(cString: strerror(errno)))); check its owner and mode (0600, the gateway's user)")
            }
            return nil
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard let password = ConsolePassword(encoded: line) else {
            throw ConsoleSecurityError(
                .passwordUnreadable, "\(path) is not a password hash the gateway wrote; set the password again with edge-gateway web set-password")
        }
        return password
    }

    /// Replaces the stored password (0600, written durably).
    package func save(stateDirectory: String) throws(ConsoleSecurityError) {
        do {
            try DurableFile.replace("\(stateDirectory)/\(Self.fileName)", with: Array((encoded + "\n").utf8))
        } catch {
            throw ConsoleSecurityError(.passwordUnreadable, "cannot store the console password: \(error)")
        }
    }

    // MARK: Helpers

    private static func derive(_ password: String, salt: [UInt8], iterations: Int) throws(ConsoleSecurityError) -> [UInt8] {
        var derived = [UInt8](repeating: 0, count: 32)
        let text = Array(password.utf8)
        let status = text.withUnsafeBufferPointer { passwordBytes in
            passwordBytes.withMemoryRebound(to: CChar.self) {
                PKCS5_PBKDF2_HMAC($0.baseAddress, Int32($0.count), salt, Int32(salt.count), Int32(iterations), EVP_sha256(), Int32(derived.count), &derived)
            }
        }
        guard status == 1 else { throw ConsoleSecurityError(.cryptoFailed, "PBKDF2 failed: \(OpenSSLError.drain())") }
        return derived
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
