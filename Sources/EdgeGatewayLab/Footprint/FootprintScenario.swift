import ArgumentParser

/// One load the footprint benchmark puts on the daemon: how many straps, how often each
/// notifies, and over which path the notifications arrive.
struct FootprintScenario: Sendable {
    let name: String
    let straps: Int
    /// Milliseconds between one strap's notifications; nil: the straps are out of range.
    let intervalMilliseconds: Int?
    /// Whether the straps offer `AcquireNotify` (a socket); otherwise `PropertiesChanged` signals.
    let acquireNotify: Bool
    /// The simulated box's adapters, the straps spread over them.
    var adapters = 1

    /// The loads issue 16 sets targets for: the Python comparison (1 strap at 10/s and at ~200/s
    /// over `PropertiesChanged`), the socket path, fleets of 10 and 50, and idle (straps bound
    /// but out of range, nothing to upload); 50 straps over three adapters, to compare with
    /// the same fleet on one; and issue 34's loads over the socket path too, which real
    /// bluetoothd offers (and the gateway takes) for the Heart Rate Measurement.
    static let all = [
        FootprintScenario(name: "1x10hz-properties", straps: 1, intervalMilliseconds: 100, acquireNotify: false),
        FootprintScenario(name: "1x10hz-acquire", straps: 1, intervalMilliseconds: 100, acquireNotify: true),
        FootprintScenario(name: "1x200hz-properties", straps: 1, intervalMilliseconds: 5, acquireNotify: false),
        FootprintScenario(name: "1x200hz-acquire", straps: 1, intervalMilliseconds: 5, acquireNotify: true),
        FootprintScenario(name: "10x1hz-properties", straps: 10, intervalMilliseconds: 1000, acquireNotify: false),
        FootprintScenario(name: "10x1hz-acquire", straps: 10, intervalMilliseconds: 1000, acquireNotify: true),
        FootprintScenario(name: "50x1hz-properties", straps: 50, intervalMilliseconds: 1000, acquireNotify: false),
        FootprintScenario(name: "50x1hz-3-adapters", straps: 50, intervalMilliseconds: 1000, acquireNotify: false, adapters: 3),
        FootprintScenario(name: "idle", straps: 1, intervalMilliseconds: nil, acquireNotify: true),
    ]

    /// Whether any sample is expected.
    var notifies: Bool { intervalMilliseconds != nil }
}

extension FootprintScenario: ExpressibleByArgument {
    init?(argument: String) {
        guard let scenario = Self.all.first(where: { $0.name == argument }) else { return nil }
        self = scenario
    }

    static var allValueStrings: [String] { all.map(\.name) }
}
