@testable import ConsoleSecurity
import Glibc
import GatewayTestSupport
import Testing

/// The console's password: hashed with a salt, checked in constant time, kept 0600, and
/// refused or reported clearly when short, missing or damaged.
@Suite("Console password")
struct ConsolePasswordTests {
    @Test("a stored password matches itself only; two hashes of one password differ by their salt")
    func matches() throws {
        let password = try ConsolePassword.hashing("correct horse battery", iterations: 1000)
        #expect(password.matches("correct horse battery"))
        #expect(!password.matches("correct horse batterY") && !password.matches("") && !password.matches("correct horse battery "))
        let again = try ConsolePassword.hashing("correct horse battery", iterations: 1000)
        #expect(again.salt != password.salt && again.hash != password.hash)
        #expect(ConsolePassword(encoded: password.encoded) == password)
    }

    @Test("the default hash is PBKDF2-HMAC-SHA256 with 600,000 iterations, as RFC 6070's vectors compute it")
    func pbkdf2() throws {
        let password = try ConsolePassword.hashing("a long enough password")
        #expect(password.encoded.hasPrefix("pbkdf2-sha256$600000$") && password.salt.count == 16 && password.hash.count == 32)
        // PBKDF2-HMAC-SHA256("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096), first 32 bytes.
        let vector = ConsolePassword(
            iterations: 4096, salt: Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8),
            hash: [
                0x34, 0x8c, 0x89, 0xdb, 0xcb, 0xd3, 0x2b, 0x2f, 0x32, 0xd8, 0x14, 0xb8, 0x11, 0x6e, 0x84, 0xcf,
                0x2b, 0x17, 0x34, 0x7e, 0xbc, 0x18, 0x00, 0x18, 0x1c, 0x4e, 0x2a, 0x1f, 0xb8, 0xdd, 0x53, 0xe1,
            ])
        #expect(vector.matches("passwordPASSWORDpassword"))
    }

    @Test("a password shorter than ten characters is refused, saying how long it must be")
    func tooShort() {
        #expect {
            try ConsolePassword.hashing("short")
        } throws: { error in
            (error as? ConsoleSecurityError)?.code == .passwordRefused && "\(error)".contains("at least 10")
        }
    }

    @Test("saved 0600 in the state directory, loaded back; none set reads as nil; a damaged file is named with the fix")
    func file() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try ConsolePassword.load(stateDirectory: directory.path) == nil)
        let password = try ConsolePassword.hashing("correct horse battery", iterations: 1000)
        try password.save(stateDirectory: directory.path)
        #expect(try ConsolePassword.load(stateDirectory: directory.path) == password)
        var status = stat()
        #expect(stat(directory.file(ConsolePassword.fileName), &status) == 0 && status.st_mode & 0o777 == 0o600)
        for damaged in ["hunter2\n", "pbkdf2-sha256$0$00$00\n", "pbkdf2-sha256$1000$zz$\(String(repeating: "0", count: 64))\n"] {
            try Array(damaged.utf8).withUnsafeBytes { bytes in
                let descriptor = open(directory.file(ConsolePassword.fileName), O_WRONLY | O_TRUNC)
                defer { close(descriptor) }
                #expect(write(descriptor, bytes.baseAddress, bytes.count) == bytes.count)
            }
            #expect {
                try ConsolePassword.load(stateDirectory: directory.path)
            } throws: { error in
                (error as? ConsoleSecurityError)?.code == .passwordUnreadable && "\(error)".contains("edge-gateway web set-password")
            }
        }
    }
}
