/// Exact decimal text for a ratio of integers, rounded half to even.
///
/// RR intervals are `raw × 1000 / 1024` ms; printing them through `Double` formatting would
/// make the last digit depend on the platform's float printing. Integer arithmetic does not.
package enum DecimalText {
    /// `numerator / denominator` with `fractionDigits` decimals, trailing zeros trimmed down to
    /// one: `(722000, 1024, 3)` → `705.078`, `(768000, 1024, 3)` → `750.0`.
    package static func format(numerator: Int, denominator: Int, fractionDigits: Int) -> String {
        precondition(numerator >= 0 && denominator > 0 && fractionDigits > 0)
        var scale = 1
        for _ in 0 ..< fractionDigits { scale *= 10 }
        let (quotient, remainder) = (numerator * scale).quotientAndRemainder(dividingBy: denominator)
        let roundsUp = 2 * remainder > denominator || (2 * remainder == denominator && quotient % 2 == 1)
        let scaled = roundsUp ? quotient + 1 : quotient

        let (whole, fraction) = scaled.quotientAndRemainder(dividingBy: scale)
        var digits = String(fraction)
        digits = String(repeating: "0", count: fractionDigits - digits.count) + digits
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// A duration in nanoseconds as seconds with millisecond digits (`1302415000000` → `1302.415`).
    package static func seconds(nanoseconds: Int64) -> String {
        format(numerator: Int(nanoseconds), denominator: 1_000_000_000, fractionDigits: 3)
    }

    /// An RR interval (1/1024 s) in milliseconds.
    package static func milliseconds(fromRRInterval raw: UInt16, fractionDigits: Int) -> String {
        format(numerator: Int(raw) * 1000, denominator: 1024, fractionDigits: fractionDigits)
    }
}

extension Duration {
    /// The duration in (fractional) seconds, for figures, histograms and jitter arithmetic.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
