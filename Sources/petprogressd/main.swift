import FoundationEssentials
import Glibc
import LinuxKit
import PetService

// petprogressd: parse options, set up the process, compose and run (Daemon does the work).
let arguments = Array(CommandLine.arguments.dropFirst())
let options: DaemonOptions
do {
    options = try DaemonOptions.parse(arguments)
} catch {
    ServiceLog()(error.message)
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
// A burst of multi-megabyte calls must not leave the daemon larger for good (docs/RELIABILITY.md,
// "Size bounds").
ProcessMemory.returnLargeBuffersWhenFreed()
StandardDescriptors.openMissing()
// SIGTERM/SIGINT are blocked before any other thread exists, so they reach only the signalfd.
let stopSignals: SignalFD
do {
    stopSignals = try SignalFD(signals: [SIGTERM, SIGINT])
} catch {
    ServiceLog()("cannot start: \(error)")
    exit(1)
}
let executable = FileSystem.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
exit(
    Daemon.run(
        options, environment: ProcessInfo.processInfo.environment, executable: executable, stopSignals: stopSignals))
