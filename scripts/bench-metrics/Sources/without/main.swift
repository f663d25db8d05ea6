import Synchronization
#if canImport(Glibc)
import Glibc
#endif
func cpu() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    let seconds = Double(u.ru_utime.tv_sec) + Double(u.ru_stime.tv_sec)
    let micro = Double(u.ru_utime.tv_usec) + Double(u.ru_stime.tv_usec)
    return seconds + micro / 1e6
}
struct Counts { var received = [Int](repeating: 0, count: 10); var accepted = [Int](repeating: 0, count: 10); var rate = [Double](repeating: 0, count: 10) }
let counts = Mutex(Counts())
let n = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 2_000_000
let t0 = cpu()
for i in 0..<n {
    let s = i % 10
    let value = Double(60 + i % 100)
    counts.withLock { c in
        c.received[s] += 1
        c.accepted[s] += 1
        c.rate[s] = value
    }
}
print("one Mutex-guarded struct (as DaemonCounters): \(r1((cpu() - t0) / Double(n) * 1e9)) ns CPU per sample")
var usage = rusage(); getrusage(RUSAGE_SELF.rawValue, &usage); print("max RSS \(usage.ru_maxrss) KiB")
func r1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
