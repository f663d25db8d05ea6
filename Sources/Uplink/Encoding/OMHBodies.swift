/// A number with a unit (`{"value": 72, "unit": "beats/min"}`).
package struct OMHUnitValue: Codable, Sendable, Equatable {
    /// The value; integral values encode without a fraction.
    package var value: Double
    /// The unit the schema demands (`beats/min`, `ms`).
    package var unit: String

    /// A unit value from its parts.
    package init(value: Double, unit: String) {
        self.value = value
        self.unit = unit
    }
}

/// When a value applies: an instant or an interval (OMH `time-frame-1.0`, one of the two).
package struct OMHTimeFrame: Codable, Sendable, Equatable {
    /// The instant, for a single reading.
    package var dateTime: String?
    /// The window, for a windowed statistic.
    package var timeInterval: OMHTimeInterval?

    /// A time frame at one instant.
    package static func instant(_ dateTime: String) -> Self { Self(dateTime: dateTime, timeInterval: nil) }
    /// A time frame over a window.
    package static func interval(start: String, end: String) -> Self {
        Self(dateTime: nil, timeInterval: OMHTimeInterval(startDateTime: start, endDateTime: end))
    }

    private enum CodingKeys: String, CodingKey {
        case dateTime = "date_time"
        case timeInterval = "time_interval"
    }
}

/// A start and end time (`time-interval-1.0`, the start/end form).
package struct OMHTimeInterval: Codable, Sendable, Equatable {
    /// Inclusive start.
    package var startDateTime: String
    /// Exclusive end.
    package var endDateTime: String

    private enum CodingKeys: String, CodingKey {
        case startDateTime = "start_date_time"
        case endDateTime = "end_date_time"
    }
}

/// The body of `omh:heart-rate:2.0`.
package struct HeartRateBody: Codable, Sendable, Equatable {
    /// Beats per minute.
    package var heartRate: OMHUnitValue
    /// When.
    package var effectiveTimeFrame: OMHTimeFrame
    /// `average`, `minimum` or `maximum` for a windowed value; absent for a single reading.
    package var descriptiveStatistic: String?

    /// A heart-rate body from its parts.
    package init(bpm: Double, effectiveTimeFrame: OMHTimeFrame, descriptiveStatistic: String? = nil) {
        self.heartRate = OMHUnitValue(value: bpm, unit: "beats/min")
        self.effectiveTimeFrame = effectiveTimeFrame
        self.descriptiveStatistic = descriptiveStatistic
    }

    private enum CodingKeys: String, CodingKey {
        case heartRate = "heart_rate"
        case effectiveTimeFrame = "effective_time_frame"
        case descriptiveStatistic = "descriptive_statistic"
    }
}

/// The body of `omh:rr-interval:1.0`.
package struct RRIntervalBody: Codable, Sendable, Equatable {
    /// The interval in milliseconds.
    package var rrInterval: OMHUnitValue
    /// When the interval ended.
    package var effectiveTimeFrame: OMHTimeFrame

    /// An RR-interval body from its parts.
    package init(milliseconds: Double, effectiveTimeFrame: OMHTimeFrame) {
        self.rrInterval = OMHUnitValue(value: milliseconds, unit: "ms")
        self.effectiveTimeFrame = effectiveTimeFrame
    }

    private enum CodingKeys: String, CodingKey {
        case rrInterval = "rr_interval"
        case effectiveTimeFrame = "effective_time_frame"
    }
}
