import OutputFormats
/// Durations for people: `4 s`, `3 min`, `2 h 5 min`, `6 d 3 h`.
enum AgeText {
    /// `seconds` rounded down to its two largest units (negative counts as zero).
    static func format(seconds: Double) -> String {
        let total = seconds.isFinite ? max(0, Int(seconds)) : 0
        let (days, hours, minutes) = (total / 86_400, total % 86_400 / 3600, total % 3600 / 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
        if minutes > 0 { return "\(minutes) min" }
        return "\(total) s"
    }

    /// Seconds as JSON-ready text with millisecond precision (negative counts as zero).
    static func decimalSeconds(_ seconds: Double) -> String {
        let milliseconds = seconds.isFinite ? max(0, Int((seconds * 1000).rounded())) : 0
        return DecimalText.format(numerator: milliseconds, denominator: 1000, fractionDigits: 3)
    }
}
