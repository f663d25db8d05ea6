import OutputFormats

/// Base64url without padding (RFC 4648 §5), as PKCE uses it.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        String(
            ByteText.base64(bytes).compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }
}
