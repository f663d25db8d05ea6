/// How a process uses a queue file.
public enum QueueAccess: Sendable, Hashable {
    /// The daemon: creates the file, checks it with `PRAGMA quick_check` at open, and replaces
    /// a damaged one with a fresh queue (keeping the damaged file beside it).
    case owner
    /// A tool working next to a running daemon: the file must exist, is not integrity-checked
    /// (that can take long on a big backlog) and is never replaced.
    case attach
}
