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

    /// Encodes samples in order. Unless the options keep them, samples whose strap reported no
    /// skin contact are left out and listed in `noContactSampleIDs`.
    package func encode(_ samples: [HeartRateSample]) throws(UplinkError) -> EncodedUpload {
        let drop = configuration.options.dropNoContact
        let readings = samples.filter { !drop || $0.measurement.contact != .notDetected }
        let noContact = drop ? samples.filter { $0.measurement.contact == .notDetected }.map(\.id) : []
        var items: [EncodedUpload.Item] = []
        items.reserveCapacity(readings.count)
        switch configuration.options.resolution {
        case .everySample:
            for sample in readings { items.append(try heartRateItem(sample)) }
        case .window(let seconds):
            for window in HeartRateWindow.group(readings, seconds: seconds) {
                items += try windowItems(window)
            }
        }
        if configuration.options.includeRRIntervals {
            for sample in readings { items += try rrIntervalItems(sample) }
        }
        return EncodedUpload(items: items, noContactSampleIDs: noContact)
    }

    /// The JSON body of `POST /FHIR/R5/` for these Observations: the writer's own bytes, which
    /// go to libcurl without a copy.
    package func bundleBytes(_ observations: [FHIRObservation]) throws(UplinkError) -> [UInt8] {
        var json = JSONWriter(capacity: 1_200 * observations.count + 64)
        try FHIRBatchBundle(observations: observations).write(to: &json)
        return json.bytes
    }

    private func heartRateItem(_ sample: HeartRateSample) throws(UplinkError) -> EncodedUpload.Item {
        let time = RFC3339.format(nanosecondsSince1970: sample.captured.wallClockNanoseconds)
        let point = OMHDataPoint(
            header: header(uuid: sample.id, schema: .heartRate, created: time, sensor: sample.sensor),
            body: HeartRateBody(bpm: Double(sample.measurement.bpm), effectiveTimeFrame: .instant(time)))
        let observation = try makeObservation(
            point, uuid: sample.id, schema: .heartRate, display: "Heart rate",
            patient: sample.patientID, effective: time)
        return EncodedUpload.Item(observation: observation, sampleIDs: [sample.id])
    }

    private func windowItems(_ window: HeartRateWindow) throws(UplinkError) -> [EncodedUpload.Item] {
        let start = RFC3339.format(nanosecondsSince1970: window.startNanoseconds)
        let end = RFC3339.format(nanosecondsSince1970: window.endNanoseconds)
        let created = RFC3339.format(nanosecondsSince1970: window.lastCaptureNanoseconds)
        var items: [EncodedUpload.Item] = []
        for (statistic, bpm) in window.statistics {
            let uuid = NameBasedUUID.make("heart-rate-window/\(statistic)/" + window.memberKey)
            let point = OMHDataPoint(
                header: header(uuid: uuid, schema: .heartRate, created: created, sensor: window.sensor),
                body: HeartRateBody(
                    bpm: bpm, effectiveTimeFrame: .interval(start: start, end: end), descriptiveStatistic: statistic))
            let observation = try makeObservation(
                point, uuid: uuid, schema: .heartRate, display: "Heart rate (\(statistic))",
                patient: window.patientID, effective: start)
            items.append(EncodedUpload.Item(observation: observation, sampleIDs: window.sampleIDs))
        }
        return items
    }

    private func rrIntervalItems(_ sample: HeartRateSample) throws(UplinkError) -> [EncodedUpload.Item] {
        let intervals = sample.measurement.rrIntervals
        var endNanoseconds = sample.captured.wallClockNanoseconds
        var items: [EncodedUpload.Item] = []
        // The last interval ends at arrival; each earlier one ends where the next began.
        for index in intervals.indices.reversed() {
            let time = RFC3339.format(nanosecondsSince1970: endNanoseconds)
            let uuid = NameBasedUUID.make("rr-interval/\(sample.id.uuidString.lowercased())/\(index)")
            let milliseconds = HeartRateMeasurement.milliseconds(fromRRInterval: intervals[index])
            let point = OMHDataPoint(
                header: header(uuid: uuid, schema: .rrInterval, created: time, sensor: sample.sensor),
                body: RRIntervalBody(milliseconds: milliseconds, effectiveTimeFrame: .instant(time)))
            items.append(
                EncodedUpload.Item(
                    observation: try makeObservation(
                        point, uuid: uuid, schema: .rrInterval, display: "RR interval",
                        patient: sample.patientID, effective: time),
                    sampleIDs: [sample.id]))
            endNanoseconds -= Int64(intervals[index]) * 1_000_000_000 / 1024
        }
        return items.reversed()
    }

    private func header(uuid: UUID, schema: OMHSchemaID, created: String, sensor: BluetoothAddress) -> OMHHeader {
        OMHHeader(
            uuid: uuid.uuidString.lowercased(), schemaID: schema, sourceCreationDateTime: created,
            modality: "sensed", externalDatasheets: configuration.options.datasheet(for: sensor))
    }

    private func makeObservation<Body: JSONWritable>(
        _ point: OMHDataPoint<Body>, uuid: UUID, schema: OMHSchemaID, display: String,
        patient: String?, effective: String
    ) throws(UplinkError) -> FHIRObservation {
        var json = JSONWriter(escaping: .asciiOnly)
        try point.write(to: &json)
        return FHIRObservation(
            identifier: [FHIRIdentifier(system: Self.identifierSystem, value: "urn:uuid:" + uuid.uuidString.lowercased())],
            code: FHIRCodeableConcept(coding: [FHIRCoding(system: Self.omhSystem, code: schema.code, display: display)]),
            subject: FHIRReference(reference: "Patient/" + (patient ?? configuration.defaultPatientID)),
            device: FHIRReference(reference: "Device/" + configuration.deviceID),
            effectiveDateTime: effective,
            valueAttachment: FHIRAttachment(contentType: "application/json", data: Data(json.bytes).base64EncodedString()))
    }
}
