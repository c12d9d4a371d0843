import Glibc

/// A failed system call: its name, what it was applied to, and `errno`.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call, e.g. `timerfd_create` or `read`.
    public var call: String
    /// The path or other subject the call was made on, for sentences; nil when there is none.
    public var subject: String?
    /// The `errno` it left.
    public var errno: Int32

    /// Creates an error from a call's name, its subject and `errno`.
    public init(call: String, subject: String? = nil, errno: Int32) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    /// `call subject: strerror(errno)`.
    public var description: String {
        "\(call)\(subject.map { " " + $0 } ?? ""): \(reason)"
    }

    /// `strerror(errno)`: "No such file or directory".
    public var reason: String { String(cString: strerror(errno)) }

    /// True for `EAGAIN`/`EWOULDBLOCK`: a non-blocking descriptor has nothing (more) for now.
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}
