/// The result of a command-line tool run to completion (busctl, gdbus, dbus-send, petctl, zdump…).
public struct ToolResult: CustomStringConvertible, Sendable {
    /// The exit status; 128 + the signal when a signal ended it.
    public var status: Int32
    /// Everything it wrote to stdout.
    public var output: String
    /// Everything it wrote to stderr.
    public var errors: String

    public init(status: Int32, output: String, errors: String) {
        self.status = status
        self.output = output
        self.errors = errors
    }

    public var description: String { "exit \(status)\nstdout: \(output.prefix(2000))\nstderr: \(errors.prefix(2000))" }
}
