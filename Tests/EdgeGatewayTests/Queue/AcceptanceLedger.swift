import OfflineQueue

/// What the crash test knows for sure: which numbers the child reported accepted and which the
/// test itself acked, and the check that the queue agrees.
struct AcceptanceLedger {
    private(set) var accepted: Set<Int> = []
    private(set) var acked: Set<Int> = []
    private(set) var cyclesWithAcceptance = 0
    private var problems: [String] = []

    /// Adds the numbers a child printed (each exactly once across all cycles).
    mutating func recordAccepted(_ lines: [Substring], cycle: Int) {
        if !lines.isEmpty { cyclesWithAcceptance += 1 }
        for line in lines {
            guard let number = Int(line) else {
                problems.append("cycle \(cycle): unexpected output line '\(line)'")
                continue
            }
            if !accepted.insert(number).inserted { problems.append("\(number) reported accepted twice") }
        }
    }

    /// Adds records the test acked.
    mutating func recordAcked(_ records: [QueuedRecord]) {
        for record in records { acked.insert(Self.number(record)) }
    }

    /// Every accepted number present exactly once or acked; nothing present twice or after its ack.
    func check(present records: [QueuedRecord]) -> [String] {
        var problems = self.problems
        var counts: [Int: Int] = [:]
        for record in records { counts[Self.number(record), default: 0] += 1 }
        for (number, count) in counts where count > 1 { problems.append("\(number) present \(count) times") }
        for number in acked where counts[number] != nil { problems.append("\(number) present after it was acked") }
        for number in accepted where counts[number] == nil && !acked.contains(number) {
            problems.append("\(number) was accepted but is missing")
        }
        return problems
    }

    private static func number(_ record: QueuedRecord) -> Int {
        Int(String(decoding: record.payload, as: UTF8.self)) ?? -1
    }
}
