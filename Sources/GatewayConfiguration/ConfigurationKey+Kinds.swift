/// The kinds of key `gateway.toml` has, each storing into one property of
/// ``GatewayConfiguration``: so a key is declared in one line of ``ConfigurationSchema``.
extension ConfigurationKey {
    /// A string; `check` refuses a bad one or returns what to store (it may resolve `""`).
    static func text(
        _ section: String, _ name: String, _ property: WritableKeyPath<GatewayConfiguration, String> & Sendable,
        allowed: String, check: @escaping @Sendable (String) throws(SettingValueError) -> String
    ) -> ConfigurationKey {
        ConfigurationKey(
            section: section, name: name, kind: .string, allowed: allowed,
            store: { configuration, value throws(SettingValueError) in
                guard case .string(let text) = value else { throw .wrongType }
                configuration[keyPath: property] = try check(text)
            },
            current: { .string($0[keyPath: property]) })
    }

    /// A string where `""` means "not set" (nil); `check` sees only non-empty values.
    static func optionalText(
        _ section: String, _ name: String, _ property: WritableKeyPath<GatewayConfiguration, String?> & Sendable,
        allowed: String, check: @escaping @Sendable (String) throws(SettingValueError) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            section: section, name: name, kind: .string, allowed: allowed,
            store: { configuration, value throws(SettingValueError) in
                guard case .string(let text) = value else { throw .wrongType }
                if !text.isEmpty { try check(text) }
                configuration[keyPath: property] = text.isEmpty ? nil : text
            },
            current: { .string($0[keyPath: property] ?? "") })
    }

    /// A whole number within `range`; `unit` names what it counts (`bytes`), if anything.
    static func integer<Number: FixedWidthInteger & Sendable>(
        _ section: String, _ name: String, _ property: WritableKeyPath<GatewayConfiguration, Number> & Sendable,
        _ range: ClosedRange<Number>, unit: String? = nil
    ) -> ConfigurationKey {
        let counted = unit.map { "a whole number of \($0)" } ?? "a whole number"
        return ConfigurationKey(
            section: section, name: name, kind: .integer,
            allowed: "\(counted) from \(range.lowerBound) to \(range.upperBound)",
            store: { configuration, value throws(SettingValueError) in
                guard case .integer(let number) = value else { throw .wrongType }
                guard let exact = Number(exactly: number), range.contains(exact) else { throw .notAllowed(detail: nil) }
                configuration[keyPath: property] = exact
            },
            current: { .integer(Int($0[keyPath: property])) })
    }

    /// A span of time written as a whole number of `unit`s within `range`.
    static func duration(
        _ section: String, _ name: String, _ property: WritableKeyPath<GatewayConfiguration, Duration> & Sendable,
        _ unit: TimeUnit, _ range: ClosedRange<Int>
    ) -> ConfigurationKey {
        ConfigurationKey(
            section: section, name: name, kind: .integer,
            allowed: "a whole number of \(unit.rawValue) from \(range.lowerBound) to \(range.upperBound)",
            store: { configuration, value throws(SettingValueError) in
                guard case .integer(let count) = value else { throw .wrongType }
                guard range.contains(count) else { throw .notAllowed(detail: nil) }
                configuration[keyPath: property] = unit.duration(count)
            },
            current: { .integer(unit.count(in: $0[keyPath: property])) })
    }

    /// `true` or `false`.
    static func boolean(
        _ section: String, _ name: String, _ property: WritableKeyPath<GatewayConfiguration, Bool> & Sendable
    ) -> ConfigurationKey {
        ConfigurationKey(
            section: section, name: name, kind: .boolean, allowed: "true or false",
            store: { configuration, value throws(SettingValueError) in
                guard case .boolean(let flag) = value else { throw .wrongType }
                configuration[keyPath: property] = flag
            },
            current: { .boolean($0[keyPath: property]) })
    }

    /// The unit a duration key is written in, named by the key's suffix (`_s`, `_ms`, `_days`).
    enum TimeUnit: String, Sendable {
        case milliseconds, seconds, days

        /// `count` of this unit.
        func duration(_ count: Int) -> Duration {
            switch self {
            case .milliseconds: .milliseconds(count)
            case .seconds: .seconds(count)
            case .days: .seconds(count * 86_400)
            }
        }

        /// How many whole units `duration` is.
        func count(in duration: Duration) -> Int {
            let (seconds, attoseconds) = duration.components
            switch self {
            case .milliseconds: return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
            case .seconds: return Int(seconds)
            case .days: return Int(seconds) / 86_400
            }
        }
    }
}
