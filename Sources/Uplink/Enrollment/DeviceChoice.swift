/// Picks the data source from a patient's consents: those of type `personal_device` or
/// `device` in studies where heart rate (`omh:heart-rate:2.0`) is consented.
enum DeviceChoice {
    static func candidates(in consents: ConsentsReply) -> [String] {
        var seen: [String] = []
        for study in consents.studies ?? [] {
            let consented = (study.scopeConsents ?? []).contains {
                $0.consented == true && $0.code?.codingCode == OMHSchemaID.heartRate.code
            }
            guard consented else { continue }
            for source in study.dataSources ?? [] where ["personal_device", "device"].contains(source.type ?? "") {
                if !seen.contains(source.id.text) { seen.append(source.id.text) }
            }
        }
        return seen
    }
}
