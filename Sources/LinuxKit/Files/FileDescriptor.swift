import Glibc

/// An open file and the path it was opened by (for error sentences), through the funnel: every
/// call retries `EINTR` and throws a ``SystemCallError`` naming the call and the path.
///
/// A class, not a `~Copyable` struct: readers keep the descriptor they read from (the store's
/// backward line reader copies itself), and the data directory's lock is held by a store object for
/// its whole life. `close()` closes it at the point the owner chooses; `deinit` closes one that a
/// thrown error left open, so none outlives its owner. One allocation per open is nothing next to
/// the `open` itself.
public final class FileDescriptor {
    /// How a file is opened, beyond reading only (the empty set). `O_CLOEXEC` is always added.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let writeOnly = Options(rawValue: O_WRONLY)
        public static let create = Options(rawValue: O_CREAT)
        public static let truncate = Options(rawValue: O_TRUNC)
        public static let append = Options(rawValue: O_APPEND)
        /// With `create`: fail with `EEXIST` if the file is there.
        public static let exclusive = Options(rawValue: O_EXCL)
        /// Fail with `ENOTDIR` unless it is a directory.
        public static let directory = Options(rawValue: O_DIRECTORY)
        /// Opening a FIFO does not wait for a writer (and reads do not wait for data).
        public static let nonBlocking = Options(rawValue: O_NONBLOCK)
        /// Fail with `ELOOP` when the last component of the path is a symbolic link.
        public static let noFollow = Options(rawValue: O_NOFOLLOW)
    }

    /// The descriptor's number; -1 once closed.
    public private(set) var rawValue: Int32
    /// The path it was opened by.
    public let path: String

    /// Takes over `rawValue`: closing it is now this object's job.
    public init(adopting rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    deinit { close() }

    /// Opens `path` (relative to `directory` when one is given, else to the working directory).
    /// Files are created with `permissions` (the umask can only narrow them).
    public static func open(
        _ path: String, _ options: Options = [], permissions: UInt32 = 0o600,
        relativeTo directory: FileDescriptor? = nil
    ) throws(SystemCallError) -> FileDescriptor {
        let subject = directory.map { FileSystem.join($0.path, path) } ?? path
        let fd = try SystemCall.run("open", subject: subject) {
            openat(directory?.rawValue ?? AT_FDCWD, path, options.rawValue | O_CLOEXEC, permissions)
        }
        return FileDescriptor(adopting: fd, path: subject)
    }

    /// Closes the descriptor; later calls do nothing. Not retried on `EINTR`: Linux has closed it
    /// by then, and a retry could close a number another thread just got.
    public func close() {
        guard rawValue >= 0 else { return }
        _ = Glibc.close(rawValue)
        rawValue = -1
    }

    /// Flushes the file's data and metadata to the disk.
    public func fsync() throws(SystemCallError) {
        try SystemCall.run("fsync", subject: path) { Glibc.fsync(rawValue) }
    }

    /// The open file's type, size and owner.
    public func status() throws(SystemCallError) -> FileStatus {
        var info = stat()
        try SystemCall.run("fstat", subject: path) { fstat(rawValue, &info) }
        return FileStatus(info)
    }

    /// The file's size in bytes.
    public func size() throws(SystemCallError) -> Int64 { try status().size }

    /// Makes reads and writes on the descriptor fail with `EAGAIN` rather than wait (`O_NONBLOCK`,
    /// on the open file itself: a descriptor received from another process shares it).
    public func setNonBlocking() throws(SystemCallError) {
        let flags = try SystemCall.run("fcntl", subject: path) { fcntl(rawValue, F_GETFL) }
        try SystemCall.run("fcntl", subject: path) { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Cuts (or extends) the file to `length` bytes.
    public func truncate(to length: Int64) throws(SystemCallError) {
        try SystemCall.run("ftruncate", subject: path) { ftruncate(rawValue, off_t(length)) }
    }

    /// Makes the file's permission bits exactly `permissions`, whatever the umask did.
    public func setPermissions(_ permissions: UInt32) throws(SystemCallError) {
        try SystemCall.run("fchmod", subject: path) { fchmod(rawValue, permissions) }
    }

    /// Writes every byte: a short write is continued, not mistaken for success.
    public func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
        try SystemCall.writeAll(rawValue, bytes, subject: path)
    }

    /// Reads up to `count` bytes at `offset` (fewer only at the end of the file), leaving the
    /// file position alone.
    public func read(at offset: Int64, count: Int) throws(SystemCallError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = try SystemCall.run("pread", subject: path) {
                buffer.withUnsafeMutableBytes {
                    pread(rawValue, $0.baseAddress! + got, count - got, off_t(offset) + off_t(got))
                }
            }
            if n == 0 { break }
            got += n
        }
        if got < count { buffer.removeLast(count - got) }
        return buffer
    }

    /// Everything from the file position to the end; `EFBIG` (as a `read` error) when that is more
    /// than `limit` bytes, so a huge file, or `/dev/zero`, cannot fill memory.
    public func readAll(limit: Int) throws(SystemCallError) -> [UInt8] {
        let cap = limit < Int.max ? limit + 1 : limit
        // The size is only a first guess (a pipe says 0, a file may grow): read until the end.
        let guess = (try? size()).map { Int(clamping: $0) } ?? 0
        var bytes = [UInt8](repeating: 0, count: min(max(guess + 1, 4096), cap))
        var count = 0
        while true {
            if count == bytes.count {
                bytes += repeatElement(0, count: min(bytes.count, cap - bytes.count))
            }
            let n = try SystemCall.read(rawValue, into: &bytes, at: count, subject: path)
            if n == 0 { break }
            count += n
            if count > limit { throw SystemCallError(call: "read", subject: path, errno: EFBIG) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Takes the exclusive `flock` without waiting: false when another open file holds it. The
    /// kernel drops it when the process dies, even by `SIGKILL`.
    public func tryLock() throws(SystemCallError) -> Bool {
        let code = SystemCall.attempt { flock(rawValue, LOCK_EX | LOCK_NB) }
        if code == EWOULDBLOCK { return false }
        if code != 0 { throw SystemCallError(call: "flock", subject: path, errno: code) }
        return true
    }

    /// Drops the `flock`, for every copy of the descriptor at once (a child between fork and
    /// exec holds copies, and closing ours alone would leave the lock held through them).
    public func unlock() {
        _ = SystemCall.attempt { flock(rawValue, LOCK_UN) }
    }
}
