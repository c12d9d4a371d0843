import DBusKit
import Foundation
import PetService

// petprogressd: parse options, set up the process, compose and run (Daemon does the work).
let arguments = Array(CommandLine.arguments.dropFirst())
let options: DaemonOptions
do {
    options = try DaemonOptions.parse(arguments)
} catch {
    FileHandle.standardError.write(Data("petprogressd: \(error.message)\n".utf8))
    exit(64)
}
if options.showHelp {
    print(DaemonOptions.help)
    exit(0)
}
if options.showVersion {
    print("petprogressd \(PetService.version)")
    exit(0)
}
// A log line to a stderr nobody reads (a closed terminal, a dead pipe reader) must not kill the
// daemon: the default SIGPIPE action would, and libdbus only ignores it once connected.
signal(SIGPIPE, SIG_IGN)
openMissingStandardDescriptors()
// SIGTERM/SIGINT are blocked before any other thread exists, so they reach only the signalfd.
let stopSignals: SignalFD
do {
    stopSignals = try SignalFD(signals: [SIGTERM, SIGINT])
} catch {
    FileHandle.standardError.write(Data("petprogressd: cannot start: \(error)\n".utf8))
    exit(1)
}
let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
exit(
    Daemon.run(
        options, environment: ProcessInfo.processInfo.environment, executable: executable, stopSignals: stopSignals))
