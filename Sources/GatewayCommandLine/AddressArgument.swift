import ArgumentParser
import GATTHeartRate

/// A strap address as a command argument: `F0:1D:2E:3C:4B:5A`, either case, `:`/`-`/`_`.
extension BluetoothAddress: ExpressibleByArgument {
    /// Parses `AA:BB:CC:DD:EE:FF` (any case); nil for anything else.
    package init?(argument: String) {
        self.init(argument)
    }
}
