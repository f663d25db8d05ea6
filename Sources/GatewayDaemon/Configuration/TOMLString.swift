/// TOML basic-string quoting, so `config check --print` writes any path or name back as a
/// string the parser reads to the same characters.
enum TOMLString {
    /// `text` in double quotes. TOML basic strings take JSON's escapes, and need DEL escaped
    /// (TOML 1.0 §String), which `JSONLine.quoted` does along with the other terminal controls.
    static func quoted(_ text: String) -> String {
        JSONLine.quoted(text)
    }
}
