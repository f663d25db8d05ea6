/// One Heart Rate Measurement (0x2A37) notification, as the strap meant it.
///
/// This is the value every later stage works with: the queue stores it inside a
/// `HeartRateSample`, the uplink turns it into an Open mHealth heart-rate data point.
public struct HeartRateMeasurement: Sendable, Hashable, Codable {
    /// Heart rate in beats per minute. Unsigned: a uint8 rate of 200 is 200, not −56.
    public var bpm: UInt16
    /// Whether the strap reports skin contact.
    public var contact: SensorContact
    /// Energy expended since the last reset, in kilojoules, when the strap sends it.
    /// Saturates at 0xFFFF on the strap.
    public var energyExpended: UInt16?
    /// RR intervals, oldest first, in the wire unit of 1/1024 s.
    public var rrIntervals: [UInt16]

    /// A measurement from its fields.
    public init(
        bpm: UInt16, contact: SensorContact = .notSupported,
        energyExpended: UInt16? = nil, rrIntervals: [UInt16] = []
    ) {
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    /// RR intervals in milliseconds (raw × 1000 / 1024). Each value is exact in a `Double`.
    public var rrMilliseconds: [Double] {
        rrIntervals.map(Self.milliseconds(fromRRInterval:))
    }

    /// Converts one RR interval from 1/1024 s to milliseconds.
    public static func milliseconds(fromRRInterval raw: UInt16) -> Double {
        Double(raw) * 1000 / 1024
    }

    /// `true` for the strap's "no reading": rate 0 while it says it is off the skin.
    /// Such frames are kept and counted but are not heart rates.
    public var isNoReading: Bool {
        bpm == 0 && contact == .notDetected
    }

    private enum CodingKeys: String, CodingKey {
        case bpm
        case contact
        case energyExpended = "energy_expended_kj"
        case rrIntervals = "rr_intervals"
    }
}
