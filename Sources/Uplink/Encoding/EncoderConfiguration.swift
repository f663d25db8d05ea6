import GATTHeartRate

/// Which data points to make from samples, independent of who they belong to.
package struct EncodingOptions: Sendable {
    /// One point per sample, or windowed statistics.
    package var resolution: UploadResolution
    /// Also send each RR interval as an `omh:rr-interval:1.0` point (off by default: JHE costs
    /// 10–14 ms per entry, and RR doubles or triples the entry count).
    package var includeRRIntervals: Bool
    /// Leave out samples whose strap reported no skin contact (their rate is noise); off, they
    /// are uploaded like any other.
    package var dropNoContact: Bool
    /// Make and model per strap.
    package var datasheets: [BluetoothAddress: SensorDatasheet]
    /// Make and model for straps without their own entry.
    package var defaultDatasheet: SensorDatasheet?

    /// Options; the defaults send one heart-rate point per sample and nothing else.
    package init(
        resolution: UploadResolution = .everySample, includeRRIntervals: Bool = false, dropNoContact: Bool = true,
        datasheets: [BluetoothAddress: SensorDatasheet] = [:], defaultDatasheet: SensorDatasheet? = nil
    ) {
        self.resolution = resolution
        self.includeRRIntervals = includeRRIntervals
        self.dropNoContact = dropNoContact
        self.datasheets = datasheets
        self.defaultDatasheet = defaultDatasheet
    }

    func datasheet(for sensor: BluetoothAddress) -> [OMHDatasheet]? {
        (datasheets[sensor] ?? defaultDatasheet)?.entries
    }
}

/// What the encoder needs beyond the samples: who and what the data belongs to on the server,
/// and which data points to make.
package struct EncoderConfiguration: Sendable {
    /// The patient a sample is filed under when the sample carries no patient binding.
    package var defaultPatientID: String
    /// The JHE data source (`Device/<id>`) every Observation names.
    package var deviceID: String
    /// Which data points to make.
    package var options: EncodingOptions

    /// A configuration for one enrolment.
    package init(defaultPatientID: String, deviceID: String, options: EncodingOptions = EncodingOptions()) {
        self.defaultPatientID = defaultPatientID
        self.deviceID = deviceID
        self.options = options
    }
}
