/// TOML basic-string quoting, so `config check --print` writes any path or name back as a
/// string the parser reads to the same characters.
enum TOMLString {
    /// `text` in double quotes. TOML basic strings take JSON's escapes and, in addition, need
    /// DEL escaped (TOML 1.0 §String), which JSON leaves as is.
    static func quoted(_ text: String) -> String {
        JSONLine.quoted(text).replacing("\u{7F}", with: "\\u007F")
    }
}
