import GATTHeartRate
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OutputFormats

/// Turns `HeartRateSample`s into the FHIR Observations JHE accepts (contract §4–5).
///
/// Every identifier is derived from sample ids only, never from the time of encoding, so
/// encoding the same samples again gives byte-identical Observations: a retry after a lost
/// reply is answered 409 and counted as delivered, never stored twice.
package struct UploadEncoder: Sendable {
    /// The OMH coding system JHE registers its codes under.
    package static let omhSystem = "https://w3id.org/openmhealth"
    /// FHIR's URI identifier system, used with `urn:uuid:` values.
    package static let identifierSystem = "urn:ietf:rfc:3986"

    /// Patient, device, resolution and datasheets.
    package let configuration: EncoderConfiguration
    /// An encoder for one enrolment.
    package init(configuration: EncoderConfiguration) {
        self.configuration = configuration
    }

    /// Plans the Observations for samples, in order. Unless the options keep them, samples
    /// whose strap reported no skin contact are left out and listed in `noContactSampleIDs`.
    package func encode(_ samples: [HeartRateSample]) -> EncodedUpload {
        let drop = configuration.options.dropNoContact
        let readings = samples.filter { !drop || $0.measurement.contact != .notDetected }
        let noContact = drop ? samples.filter { $0.measurement.contact == .notDetected }.map(\.id) : []
        var items: [EncodedUpload.Item] = []
        items.reserveCapacity(readings.count)
        switch configuration.options.resolution {
        case .everySample:
            for sample in readings { items.append(EncodedUpload.Item(source: .reading(sample), sampleIDs: [sample.id])) }
        case .window(let seconds):
            for window in HeartRateWindow.group(readings, seconds: seconds) {
                let (ids, members) = (window.sampleIDs, window.memberKey)
                for (statistic, bpm) in window.statistics {
                    let uuid = NameBasedUUID.make("heart-rate-window/\(statistic)/" + members)
                    items.append(
                        EncodedUpload.Item(source: .windowStatistic(window, statistic: statistic, bpm: bpm, uuid: uuid), sampleIDs: ids))
                }
            }
        }
        if configuration.options.includeRRIntervals {
            for sample in readings { items += rrIntervalItems(sample) }
        }
        return EncodedUpload(items: items, noContactSampleIDs: noContact)
    }

    /// The JSON body of `POST /FHIR/R5/` for these items: the writer's own bytes, which go to
    /// libcurl without a copy. Each Observation is built as it is written.
    package func bundleBytes(_ items: [EncodedUpload.Item]) throws(UplinkError) -> [UInt8] {
        var json = JSONWriter(capacity: 1_200 * items.count + 64)
        try FHIRBatchBundle.write(entries: items.count, to: &json) { index throws(UplinkError) in
            try observation(for: items[index])
        }
        return json.bytes
    }

    /// The Observation one item stands for; the same item always gives the same bytes.
    package func observation(for item: EncodedUpload.Item) throws(UplinkError) -> FHIRObservation {
        switch item.source {
        case .reading(let sample):
            let time = RFC3339.format(nanosecondsSince1970: sample.captured.wallClockNanoseconds)
            let uuid = sample.id.lowercasedText
            let point = OMHDataPoint(
                header: header(uuid: uuid, schema: .heartRate, created: time, sensor: sample.sensor),
                body: HeartRateBody(bpm: Double(sample.measurement.bpm), effectiveTimeFrame: .instant(time)))
            return try makeObservation(
                point, uuid: uuid, schema: .heartRate, display: "Heart rate", patient: sample.patientID, effective: time)
        case .windowStatistic(let window, let statistic, let bpm, let uuid):
            let start = RFC3339.format(nanosecondsSince1970: window.startNanoseconds)
            let end = RFC3339.format(nanosecondsSince1970: window.endNanoseconds)
            let created = RFC3339.format(nanosecondsSince1970: window.lastCaptureNanoseconds)
            let uuid = uuid.lowercasedText
            let point = OMHDataPoint(
                header: header(uuid: uuid, schema: .heartRate, created: created, sensor: window.sensor),
                body: HeartRateBody(
                    bpm: bpm, effectiveTimeFrame: .interval(start: start, end: end), descriptiveStatistic: statistic))
            return try makeObservation(
                point, uuid: uuid, schema: .heartRate, display: "Heart rate (\(statistic))",
                patient: window.patientID, effective: start)
        case .rrInterval(let sample, let index, let endNanoseconds):
            let time = RFC3339.format(nanosecondsSince1970: endNanoseconds)
            let uuid = NameBasedUUID.make("rr-interval/\(sample.id.lowercasedText)/\(index)").lowercasedText
            let milliseconds = HeartRateMeasurement.milliseconds(fromRRInterval: sample.measurement.rrIntervals[index])
            let point = OMHDataPoint(
                header: header(uuid: uuid, schema: .rrInterval, created: time, sensor: sample.sensor),
                body: RRIntervalBody(milliseconds: milliseconds, effectiveTimeFrame: .instant(time)))
            return try makeObservation(
                point, uuid: uuid, schema: .rrInterval, display: "RR interval", patient: sample.patientID, effective: time)
        }
    }

    /// A sample's RR intervals in time order: the last ends at arrival, each earlier one
    /// where the next began.
    private func rrIntervalItems(_ sample: HeartRateSample) -> [EncodedUpload.Item] {
        let intervals = sample.measurement.rrIntervals
        var endNanoseconds = sample.captured.wallClockNanoseconds
        var items: [EncodedUpload.Item] = []
        for index in intervals.indices.reversed() {
            items.append(
                EncodedUpload.Item(source: .rrInterval(sample, index: index, endNanoseconds: endNanoseconds), sampleIDs: [sample.id]))
            endNanoseconds -= Int64(intervals[index]) * 1_000_000_000 / 1024
        }
        return items.reversed()
    }

    private func header(uuid: String, schema: OMHSchemaID, created: String, sensor: BluetoothAddress) -> OMHHeader {
        OMHHeader(
            uuid: uuid, schemaID: schema, sourceCreationDateTime: created,
            modality: "sensed", externalDatasheets: configuration.options.datasheet(for: sensor))
    }

    private func makeObservation<Body: JSONWritable>(
        _ point: OMHDataPoint<Body>, uuid: String, schema: OMHSchemaID, display: String,
        patient: String?, effective: String
    ) throws(UplinkError) -> FHIRObservation {
        var json = JSONWriter(escaping: .asciiOnly)
        try point.write(to: &json)
        return FHIRObservation(
            identifier: [FHIRIdentifier(system: Self.identifierSystem, value: "urn:uuid:" + uuid)],
            code: FHIRCodeableConcept(coding: [FHIRCoding(system: Self.omhSystem, code: schema.code, display: display)]),
            subject: FHIRReference(reference: "Patient/" + (patient ?? configuration.defaultPatientID)),
            device: FHIRReference(reference: "Device/" + configuration.deviceID),
            effectiveDateTime: effective,
            valueAttachment: FHIRAttachment(contentType: "application/json", payload: json.bytes))
    }
}
