@testable import ConfigurationTOML

/// libFuzzer entry point (`make fuzz`) for the configuration file's TOML reader: any bytes (not
/// only UTF-8: the reader checks) must either parse or throw a `TOMLSyntaxError` that points
/// inside the text (a line and column from 1, the line no further than the text's last), and
/// never trap, however deep or long the input; parsing is deterministic.
@_cdecl("LLVMFuzzerTestOneInput")
public func tomlFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let table = try TOMLParser.parse(utf8: bytes)
        precondition((try? TOMLParser.parse(utf8: bytes)) == table, "the same text parsed two ways")
    } catch {
        let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        precondition(error.line >= 1 && error.line <= lines && error.column >= 1, "error outside the text: \(error)")
        precondition(!error.message.isEmpty, "an error without a message")
    }
    return 0
}
