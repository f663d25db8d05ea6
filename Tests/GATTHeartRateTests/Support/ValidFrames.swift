import GATTHeartRate

/// Valid frames whose every prefix is checked: the real captures plus one spec-built frame for
/// each combination of the defined flag bits.
enum ValidFrames {
    static let all: [[UInt8]] = RealStrapFrame.all.map(\.bytes) + specBuilt

    static let specBuilt: [[UInt8]] = (UInt8(0) ..< 32).map { (flags: UInt8) -> [UInt8] in
        let bpm: UInt16 = flags & 0x01 != 0 ? 0x0123 : 0x45
        let energy: UInt16? = flags & 0x08 != 0 ? 0xBEEF : nil
        let rr: [UInt16] = flags & 0x10 != 0 ? [0x0300, 0x0301, 0x0302] : []
        return FrameBuilder.frame(flags: flags, bpm: bpm, energy: energy, rr: rr)
    }
}
