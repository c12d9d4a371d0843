import Glibc

/// One line per event to stderr (journald adds the time and the unit).
public struct ServiceLog: Sendable {
    public init() {}

    public func callAsFunction(_ line: String) {
        let text = "petprogressd: \(line)\n"
        // write(2) to fd 2 directly: unbuffered, and no shared `stderr` FILE* for Swift 6 to object to.
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
