import Glibc

/// A private `dbus-daemon` (from Debian's `dbus-daemon` package) for tests, the simulator and
/// the demo: a bus nobody else uses, with a permissive policy, that goes away with this object.
///
/// Clients reach it by exporting its `address` as `DBUS_SYSTEM_BUS_ADDRESS`, exactly as they
/// would find a real system bus, so the gateway under test needs no special code path.
package final class PrivateBus: @unchecked Sendable {
    /// Why the bus could not be started.
    package struct StartError: Error, CustomStringConvertible {
        /// What failed and why (`strerror`, or where the daemon's log is), for the operator.
        package let description: String
    }

    /// The bus address (`unix:path=/tmp/…/bus,guid=…`).
    package let address: String
    /// The daemon's process id (for measuring its CPU time).
    package var daemonPID: Int32 { daemon.pid }
    private let daemon: ChildProcess
    private let directory: String

    /// Starts a daemon listening on a socket in a new temporary directory.
    package init(executable: String = "dbus-daemon") throws {
        var template = Array("/tmp/edge-gateway-bus-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw StartError(description: "cannot create a directory for the private bus: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        let config = directory + "/bus.conf"
        let policy = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(directory)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_type="method_call"/>
                <allow send_destination="*" eavesdrop="true"/>
                <allow receive_sender="*"/>
                <allow eavesdrop="true"/>
              </policy>
            </busconfig>

            """
        guard let file = fopen(config, "w") else {
            throw StartError(description: "cannot write \(config): \(String(cString: strerror(errno)))")
        }
        fputs(policy, file)
        fclose(file)
        do {
            daemon = try ChildProcess(
                executable, ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
                captureOutput: true, errorPath: directory + "/daemon.log")
        } catch {
            throw StartError(description: "\(error) (is Debian's dbus-daemon package installed?)")
        }
        guard let line = daemon.readLine(), line.hasPrefix("unix:") else {
            daemon.terminate()
            throw StartError(description: "dbus-daemon did not print its address; see \(directory)/daemon.log")
        }
        address = line
    }

    /// Stops the daemon and removes its directory.
    package func stop() {
        daemon.terminate()
        for name in ["bus", "bus.conf", "daemon.log"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    deinit { stop() }
}
