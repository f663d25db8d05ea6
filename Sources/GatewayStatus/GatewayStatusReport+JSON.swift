#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OutputFormats
import Uplink

/// The report's JSON, written by hand: the daemon rewrites it while it is otherwise idle, where
/// the report was about a third of its CPU and `JSONEncoder` (reflection over `Codable`, key
/// sorting) 12 % (`perf`, 24 November). The bytes are what `JSONEncoder` gives with `.iso8601`
/// dates and `[.sortedKeys, .withoutEscapingSlashes]` (the tests compare them), so readers decode
/// it as before; keys below are in that sorted order, and absent optionals are left out as
/// `Codable` leaves them.
extension GatewayStatusReport {
    /// The report as `status.json` holds it.
    package var jsonBytes: [UInt8] {
        var json = JSONWriter(capacity: 384 + 320 * sensors.count)
        json.beginObject()
        json.key("adapters")
        json.beginArray()
        for adapter in adapters { adapter.write(to: &json) }
        json.endArray()
        json.key("clockSynchronized")
        json.boolean(clockSynchronized)
        json.key("gatewayName")
        json.string(gatewayName)
        json.key("pid")
        json.integer(pid)
        json.key("refreshSeconds")
        json.seconds(refreshSeconds)
        json.key("samplesAwaitingClock")
        json.integer(samplesAwaitingClock)
        json.key("sensors")
        json.beginArray()
        for sensor in sensors { sensor.write(to: &json) }
        json.endArray()
        json.key("startedAt")
        json.date(startedAt)
        if let storageFault {
            json.key("storageFault")
            json.string(storageFault)
        }
        if let storageFaultSince {
            json.key("storageFaultSince")
            json.date(storageFaultSince)
        }
        if let storageSlowCommitSeconds {
            json.key("storageSlowCommitSeconds")
            json.seconds(storageSlowCommitSeconds)
        }
        json.key("uplink")
        uplink.write(to: &json)
        json.key("version")
        json.integer(version)
        json.key("writtenAt")
        json.date(writtenAt)
        json.endObject()
        return json.bytes
    }
}

extension GatewayStatusReport.SensorStatus {
    fileprivate func write(to json: inout JSONWriter) {
        json.beginObject()
        if let adapter {
            json.key("adapter")
            json.string(adapter)
        }
        json.key("address")
        json.string(address)
        if let alias {
            json.key("alias")
            json.string(alias)
        }
        if let batteryPercent {
            json.key("batteryPercent")
            json.integer(batteryPercent)
        }
        if let bpm {
            json.key("bpm")
            json.integer(bpm)
        }
        if let lastSampleAt {
            json.key("lastSampleAt")
            json.date(lastSampleAt)
        }
        json.key("malformedFrames")
        json.integer(malformedFrames)
        if let patientID {
            json.key("patientID")
            json.string(patientID)
        }
        json.key("reconnects")
        json.integer(reconnects)
        if let rrIntervalsMs {
            json.key("rrIntervalsMs")
            json.beginArray()
            for interval in rrIntervalsMs { try? json.number(interval) }
            json.endArray()
        }
        if let rssi {
            json.key("rssi")
            json.integer(rssi)
        }
        json.key("samplesAccepted")
        json.integer(samplesAccepted)
        json.key("samplesDelivered")
        json.integer(samplesDelivered)
        json.key("samplesDuplicate")
        json.integer(samplesDuplicate)
        json.key("samplesReceived")
        json.integer(samplesReceived)
        json.key("samplesRejected")
        json.integer(samplesRejected)
        if let skinContact {
            json.key("skinContact")
            json.string(skinContact)
        }
        json.key("state")
        json.string(state)
        json.key("stateDetail")
        json.string(stateDetail)
        json.endObject()
    }
}

extension GatewayStatusReport.UplinkStatus {
    fileprivate func write(to json: inout JSONWriter) {
        json.beginObject()
        if let currentError {
            json.key("currentError")
            json.string(currentError)
        }
        if let failingSince {
            json.key("failingSince")
            json.date(failingSince)
        }
        if let lastError {
            json.key("lastError")
            json.string(lastError)
        }
        if let lastErrorAt {
            json.key("lastErrorAt")
            json.date(lastErrorAt)
        }
        if let lastSuccessAt {
            json.key("lastSuccessAt")
            json.date(lastSuccessAt)
        }
        if let reenrolmentRequired {
            json.key("reenrolmentRequired")
            json.string(reenrolmentRequired)
        }
        if let server {
            json.key("server")
            json.string(server)
        }
        if let tokenExpiresAt {
            json.key("tokenExpiresAt")
            json.date(tokenExpiresAt)
        }
        json.key("tokenRefreshes")
        json.integer(tokenRefreshes)
        json.endObject()
    }
}

extension JSONWriter {
    /// A date as `JSONEncoder`'s `.iso8601` writes it: UTC, whole seconds (the fraction dropped).
    package mutating func date(_ date: Date) {
        string(RFC3339.format(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down))))
    }

    /// A period in seconds: a configuration value or a measured duration, finite, so never
    /// refused.
    package mutating func seconds(_ value: Double) {
        guard value.isFinite else { return integer(0) }
        try? number(value)
    }
}
