/// Text from the file (a key, a value) as a message quotes it: cut to 80 Unicode scalars with
/// its full length, so a megabyte key never becomes a megabyte on standard error. Counted in
/// scalars, not characters: one character can be a megabyte of combining marks.
enum Echo {
    static func cut(_ text: some StringProtocol, limit: Int = 80) -> String {
        let count = text.unicodeScalars.count
        guard count > limit else { return String(text) }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "… (\(count) characters)"
    }
}
