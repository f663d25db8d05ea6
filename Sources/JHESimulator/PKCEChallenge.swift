import Crypto
import Foundation

/// PKCE S256 as JHE applies it: the challenge is base64url(SHA-256(verifier)), and the verifier
/// the client must present is base64url(UTF-8 bytes of the invitation token).
enum PKCEChallenge {
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The S256 challenge of `verifier`.
    static func s256(_ verifier: String) -> String {
        base64URL(SHA256.hash(data: Array(verifier.utf8)))
    }

    /// The challenge an invitation token commits to.
    static func forInvitation(token: String) -> String {
        s256(base64URL(Array(token.utf8)))
    }
}
