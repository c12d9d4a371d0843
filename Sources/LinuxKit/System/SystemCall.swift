import Glibc

/// The one funnel every Linux system call goes through (the swift-system `valueOrErrno` pattern):
/// `-1` plus `errno` becomes a thrown ``SystemCallError`` naming the call, and `EINTR` is retried —
/// a signal arriving mid-call is not a failure of the call.
public enum SystemCall {
    /// Runs `body` until it returns something other than `-1` with `EINTR`; returns that result,
    /// or throws the `errno` of a failure, naming `call` and `subject`.
    @discardableResult
    public static func run<Result: BinaryInteger>(
        _ call: String, subject: String? = nil, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, subject: subject, errno: code)
        }
    }

    /// The `errno` of a call that may fail for an expected reason (`ENOENT`, `EEXIST`), or 0 when
    /// it succeeded; `EINTR` is retried.
    public static func attempt<Result: BinaryInteger>(_ body: () -> Result) -> Int32 {
        while true {
            if body() != -1 { return 0 }
            let code = Glibc.errno
            if code != EINTR { return code }
        }
    }

    /// `read(2)` of at most `count` bytes into `buffer`: the number read (0 at the end of a file).
    /// A non-blocking descriptor with nothing to read throws an error whose ``SystemCallError/wouldBlock``
    /// is true.
    public static func read(
        _ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, subject: String? = nil
    ) throws(SystemCallError) -> Int {
        try run("read", subject: subject) { Glibc.read(fd, buffer, count) }
    }

    /// `read(2)` into `buffer` from `offset` to its end: the number of bytes read.
    public static func read(
        _ fd: Int32, into buffer: inout [UInt8], at offset: Int = 0, subject: String? = nil
    ) throws(SystemCallError) -> Int {
        guard offset < buffer.count else { return 0 }
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemCallError) in
                try read(fd, bytes.baseAddress! + offset, bytes.count - offset, subject: subject)
            }
        }
        return try result.get()
    }

    /// `write(2)` of `bytes` from `offset` to their end: the number of bytes written.
    public static func write(
        _ fd: Int32, _ bytes: [UInt8], from offset: Int = 0, subject: String? = nil
    ) throws(SystemCallError) -> Int {
        guard offset < bytes.count else { return 0 }
        return try run("write", subject: subject) {
            bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        }
    }

    /// `write(2)` until every byte of `bytes` is written: a short write is continued, not mistaken
    /// for success; a write that takes nothing fails with `EIO`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], subject: String? = nil) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let n = try write(fd, bytes, from: done, subject: subject)
            if n == 0 { throw SystemCallError(call: "write", subject: subject, errno: EIO) }
            done += n
        }
    }
}
