// dbuskit-testservice: a D-Bus service built on DBusKit that exercises every DBusKit feature, for the
// DBusKit integration tests and benchmarks. Prints "READY <unique name>" once its name is owned.
import DBusKit
import Glibc
import LinuxKit

let options = ServiceOptions(CommandLine.arguments)
do {
    let connection = try options.address.map { try Connection(address: $0) } ?? Connection.session()
    let loop = EventLoop()
    let service = TestService(connection: connection, loop: loop)
    try connection.export(try service.makeObject())
    try loop.add(connection)
    try service.watchSignals()
    do {
        try connection.requestName(options.name)
    } catch {
        say("dbuskit-testservice: \(error)")
        exit(3)
    }
    print("READY \(connection.uniqueName)")
    fflush(nil)  // stdout is a pipe in tests: block-buffered
    switch loop.run() {
    case .stopped:
        connection.flush()
        exit(0)
    case .disconnected:
        say("dbuskit-testservice: disconnected from the bus")
        exit(4)
    case .pollFailed(let code):
        say("dbuskit-testservice: poll failed, errno \(code)")
        exit(5)
    }
} catch {
    say("dbuskit-testservice: \(error)")
    exit(1)
}

/// One line to stderr (unbuffered; Swift 6 forbids touching the global `stderr` stream).
func say(_ line: String) {
    _ = (line + "\n").utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}
