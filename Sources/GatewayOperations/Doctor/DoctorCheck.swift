import OutputFormats
/// One `doctor` finding: a name, whether it passed, what was seen, and for a failure what to do.
package struct DoctorCheck: Sendable, Equatable {
    let name: String
    /// Whether the check passed; `doctor` counts the failures for its summary and exit status.
    package let passed: Bool
    /// What was found (pass) or what is wrong (fail).
    let detail: String
    /// How to fix a failure.
    let fix: String?

    /// A passing check.
    static func pass(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, passed: true, detail: detail, fix: nil)
    }

    /// A failing check with its remedy.
    static func fail(_ name: String, _ problem: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, passed: false, detail: problem, fix: fix)
    }

    /// `✓ name: detail` or `✗ name: what is wrong — how to fix`.
    package var line: String {
        passed ? "✓ \(name): \(detail)" : "✗ \(name): \(detail) — \(fix ?? "")"
    }

    /// `{"check":…,"ok":…,"detail":…,"fix":…}`.
    package var jsonLine: String {
        var line = JSONLine()
        line.add("check", .string(name))
        line.add("ok", .boolean(passed))
        line.add("detail", .string(detail))
        line.add("fix", .optional(fix))
        return line.text
    }
}
