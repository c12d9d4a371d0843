import FoundationEssentials
import Glibc
import PetService

// petprogressd: parse options, compose, run (Daemon does the work).
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
let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
exit(Daemon.run(options, environment: ProcessInfo.processInfo.environment, executable: executable))
