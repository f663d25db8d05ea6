import Glibc

/// What is at a path, from `stat(2)`: the part of `FileManager.fileExists(atPath:isDirectory:)`
/// the gateway needs, without the Objective-C `ObjCBool` that only full Foundation has.
package enum FileKind: Equatable {
    case missing
    case directory
    case other

    /// The kind of `path` (following symbolic links).
    package init(atPath path: String) {
        var info = stat()
        if stat(path, &info) != 0 {
            self = .missing
        } else {
            self = info.st_mode & S_IFMT == S_IFDIR ? .directory : .other
        }
    }
}
