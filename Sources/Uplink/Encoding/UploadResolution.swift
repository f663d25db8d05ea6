/// How samples become data points: one per sample (1 Hz), or one set of statistics per window.
package enum UploadResolution: Sendable, Equatable, CustomStringConvertible {
    /// One heart-rate data point per sample.
    case everySample
    /// Per window of this many seconds (aligned to the Unix epoch): an average, a minimum and
    /// a maximum data point, each with a `time_interval`.
    case window(seconds: Int)

    /// Parses `every-sample` (or `raw`) and durations such as `60s`, `5m`, `1h`.
    package init(parsing text: String) throws(UplinkError) {
        let trimmed = String(text.filter { !$0.isWhitespace }).lowercased()
        if trimmed == "every-sample" || trimmed == "raw" {
            self = .everySample
            return
        }
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        guard let unit = trimmed.last, let scale = units[unit], let count = Int(trimmed.dropLast()),
            count > 0, count <= 86_400 / scale
        else {
            throw UplinkError(.invalidResolution, "resolution '\(text)' is not 'every-sample' or a duration like 60s, 5m, 1h (at most 24h)")
        }
        self = .window(seconds: count * scale)
    }

    /// `every-sample` or the window in seconds (`300s`): text `init(parsing:)` reads back.
    package var description: String {
        switch self {
        case .everySample: "every-sample"
        case .window(let seconds): "\(seconds)s"
        }
    }
}
