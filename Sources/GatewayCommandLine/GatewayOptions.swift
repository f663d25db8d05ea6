import ArgumentParser
import GatewayPipeline
import OutputFormats

/// Options every sensor command accepts: where the state lives, which adapter to use, how
/// much to say, and whether to say it as JSON lines.
package struct GatewayOptions: ParsableArguments, Sendable {
    /// The defaults, before the command line is parsed (ArgumentParser's requirement).
    package init() {}

    @OptionGroup var state: StateDirectoryOption

    /// `--adapter NAME`: the controller's name as BlueZ knows it (`hci0`); a missing or powered-off
    /// adapter ends the command with exit 69.
    @Option(help: ArgumentHelp("The Bluetooth adapter to use.", valueName: "NAME"))
    package var adapter = "hci0"

    /// `--verbose`: narrate each step on standard error (see `explain`); stdout is unchanged.
    @Flag(help: "Explain each step on standard error.")
    package var verbose = false

    /// `--json`: print JSON objects, one per line, instead of text for people.
    @Flag(help: "Print machine-readable JSON, one object per line.")
    package var json = false

    /// The bindings store in the state directory.
    var bindings: SensorBindingStore { SensorBindingStore(directory: state.directory) }

    /// Runs `change` on the bindings store; a failure becomes a command failure (exit 1).
    package func withBindings<T>(_ change: (SensorBindingStore) throws(SensorBindingError) -> T) throws(CommandError) -> T {
        do {
            return try change(bindings)
        } catch {
            throw .other(error.description)
        }
    }

    /// Prints `line` on standard error with `--verbose`.
    package func explain(_ line: @autoclosure () -> String) {
        if verbose { StandardError.writeLine(line()) }
    }
}
