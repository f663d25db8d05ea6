/// Where and why a text is not TOML 1.0: a 1-based line and column (in characters) and what
/// was expected, so the operator can go straight to the mistake.
struct TOMLSyntaxError: Error, Equatable {
    /// The line of the mistake, from 1.
    let line: Int
    /// The column of the mistake, from 1, counted in Unicode scalars.
    let column: Int
    /// What is wrong there, in a sentence without the position.
    let message: String

    /// An error at byte offset `offset` of `bytes`, its line and column worked out from the text.
    /// That reads the text up to `offset`: build one only to throw it (one built ahead for every
    /// key, in case, made reading quadratic).
    init(_ message: String, at offset: Int, in bytes: [UInt8]) {
        let before = bytes[..<min(offset, bytes.count)]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        self.line = before.count { $0 == UInt8(ascii: "\n") } + 1
        self.column = bytes[lineStart ..< before.endIndex].count { $0 & 0xC0 != 0x80 } + 1
        self.message = message
    }
}
