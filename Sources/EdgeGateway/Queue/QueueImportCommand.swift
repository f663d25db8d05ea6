import ArgumentParser
import GatewayCommandLine
import GatewayPipeline
import GatewayStatus
import OfflineQueue
import OutputFormats

/// `edge-gateway queue import`: recovers the records of a queue file the daemon found damaged
/// and moved aside, so a damaged header or a bad page costs no sample that can still be read.
struct QueueImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append the readable records of moved-aside (damaged) queue files to the live queue.",
        discussion: """
            When the daemon finds its queue damaged it moves it aside as \
            <state-dir>/queue.sqlite.corrupt-<UTC time> and starts a fresh one; `status` and \
            `doctor` list such files. This reads a copy of each (restoring an overwritten \
            header, skipping damaged pages), appends every readable record to the live queue \
            (held.sqlite's to the held queue), then renames the file with `.imported` appended. \
            Dead letters stay in the file. Safe beside the running daemon; samples already \
            delivered are recognised by the server as duplicates.
            """
    )

    @OptionGroup var state: StateDirectoryOption

    @Argument(help: ArgumentHelp("Moved-aside files to import (default: every one in the state directory).", valueName: "FILE"))
    var files: [String] = []

    func run() async throws {
        let found = try files.isEmpty ? MovedAsideQueue.find(in: state.directory) : files.map(Self.movedAside)
        guard !found.isEmpty else {
            StandardOutput.writeLine("no moved-aside queue files in \(state.directory)")
            return
        }
        for file in found {
            let target = file.originalName == HeldSamples.fileName ? state.heldQueuePath : state.queuePath
            try await QueueFailure.run(try state.attachQueue(path: target)) { queue in
                let report = try await QueueSalvage.salvage(file, into: queue)
                var notes = report.headerRepaired ? ["its header was restored"] : []
                if let first = report.damage.first {
                    notes.append("reading stopped at damage \(report.damage.count) time(s) and went on past it; first: \(first)")
                }
                notes.append(report.deadLettersLeft.map { "\($0) dead letter(s) left in it" } ?? "its dead letters cannot be read")
                StandardOutput.writeLine(
                    "imported \(report.imported) record(s) from \(file.path) into \(target) (\(notes.joined(separator: ", "))); renamed it \(file.path).imported"
                )
            }
        }
        RunningDaemon.nudge(stateDirectory: state.directory)
    }

    /// `path` as a moved-aside queue file, or a usage error naming what it is instead.
    private static func movedAside(_ path: String) throws -> MovedAsideQueue {
        guard let file = MovedAsideQueue(path: path) else {
            QueueFailure.report("\(path) is not a moved-aside queue file (<name>.corrupt-<UTC time>, not yet imported)")
            throw ExitStatus.usage
        }
        return file
    }
}
