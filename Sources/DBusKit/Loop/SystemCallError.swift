import Glibc

/// A failed system call: its name and `errno`.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call, e.g. `timerfd_create`.
    public var call: String
    /// The `errno` it left.
    public var errno: Int32

    /// `call: strerror(errno)`.
    public var description: String {
        "\(call): \(String(cString: strerror(errno)))"
    }

    /// Throws the current `errno` when `result` is -1, else returns `result`.
    static func check<T: BinaryInteger>(_ result: T, _ call: String) throws -> T {
        if result == -1 { throw SystemCallError(call: call, errno: Glibc.errno) }
        return result
    }
}
