import LinuxKit

/// One line per event to stderr (journald adds the time and the unit).
public struct ServiceLog: Sendable {
    public init() {}

    public func callAsFunction(_ line: String) {
        StandardDescriptors.writeError("petprogressd: \(line)\n")
    }
}
