import CLinux
import Glibc

/// The calls behind `MappedFile.privateCopy`: an unnamed file, a copy made by the kernel, the room
/// left on a file system, and a second descriptor for a thread of its own.
extension FileDescriptor {
    /// An unnamed regular file in `directory`, open for reading and writing (`O_TMPFILE`): it has
    /// no name to find, rename or leave behind, and its blocks are freed when its last descriptor
    /// and mapping go, a crash included. Never linked. Where the file system cannot hold one
    /// (`EOPNOTSUPP`, or `EISDIR` from an older kernel: NFS, CIFS, FUSE file systems), the file
    /// is made with a name and unlinked at once (`unlinkedNamed`).
    public static func unnamed(in directory: FileDescriptor, permissions: UInt32 = 0o600) throws(SystemCallError)
        -> FileDescriptor
    {
        let subject = "an unnamed file in \(directory.path)"
        do throws(SystemCallError) {
            let fd = try SystemCall.run("open", subject: subject) {
                openat(directory.rawValue, ".", CLINUX_O_TMPFILE | O_RDWR | O_CLOEXEC, permissions)
            }
            return FileDescriptor(adopting: fd, path: subject)
        } catch where error.errno == EOPNOTSUPP || error.errno == EISDIR {
            return try unlinkedNamed(in: directory, permissions: permissions)
        }
    }

    /// A new regular file in `directory` (`O_CREAT | O_EXCL`, no link followed) under a name of
    /// its own (`.petprogress-copy-PID-N`), unlinked as soon as it is open: `unnamed` where the file
    /// system has no `O_TMPFILE`. Only a crash between the two calls leaves the empty file behind.
    public static func unlinkedNamed(in directory: FileDescriptor, permissions: UInt32 = 0o600)
        throws(SystemCallError) -> FileDescriptor
    {
        let subject = "a file in \(directory.path)"
        // A name taken by a file left by an earlier crash is passed over; a few tries at most.
        for attempt in 0..<8 {
            let name = ".petprogress-copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            do throws(SystemCallError) {
                let fd = try SystemCall.run("open", subject: subject) {
                    openat(directory.rawValue, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, permissions)
                }
                let file = FileDescriptor(adopting: fd, path: subject)
                do throws(SystemCallError) {
                    try SystemCall.run("unlink", subject: subject) { unlinkat(directory.rawValue, name, 0) }
                } catch {
                    file.close()
                    throw error
                }
                return file
            } catch where error.errno == EEXIST && attempt < 7 {
                continue
            }
        }
        throw SystemCallError(call: "open", subject: subject, errno: EEXIST)
    }

    /// Another descriptor for the same open file (close-on-exec), closed on its own: a thread that
    /// may outlive its caller's use of this one keeps its own.
    public func duplicate() throws(SystemCallError) -> FileDescriptor {
        let fd = try SystemCall.run("fcntl", subject: path) { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) }
        return FileDescriptor(adopting: fd, path: path)
    }

    /// The bytes an unprivileged writer may still put on this file's file system (`fstatvfs`:
    /// `f_bavail` blocks of `f_frsize`).
    public func availableBytes() throws(SystemCallError) -> Int64 {
        var info = statvfs()
        try SystemCall.run("fstatvfs", subject: path) { fstatvfs(rawValue, &info) }
        let (bytes, overflow) = Int64(clamping: info.f_bavail).multipliedReportingOverflow(
            by: Int64(clamping: info.f_frsize))
        return overflow ? .max : bytes
    }

    /// Appends `source`'s bytes from its start to its end, at most `limit` of them, in the kernel
    /// (`copy_file_range`, or `sendfile` where the two file systems cannot: no buffer of the
    /// process's own), in chunks of at most `chunk` bytes; the number copied. `source`'s offset and
    /// flags are left as they are (its reads are at explicit offsets). A source that shrinks meanwhile
    /// ends the copy short; one that grows is copied on, to `limit` at most.
    public func append(
        contentsOf source: FileDescriptor, limit: Int64, chunk: Int = 16 << 20
    ) throws(SystemCallError) -> Int64 {
        var offset = 0  // __off64_t and off_t are Int on 64-bit Linux
        let limit = Int(clamping: limit)
        var inKernelCopy = true
        while offset < limit {
            let count = min(limit - offset, chunk)
            var n = 0
            if inKernelCopy {
                let code = SystemCall.attempt {
                    n = copy_file_range(source.rawValue, &offset, rawValue, nil, count, 0)
                    return n
                }
                switch code {
                case 0:
                    if n == 0 { return Int64(offset) }
                    continue
                // Another file system, or one without the call: the same copy through sendfile.
                case EXDEV, EINVAL, EOPNOTSUPP, ENOSYS:
                    inKernelCopy = false
                default:
                    throw SystemCallError(call: "copy_file_range", subject: path, errno: code)
                }
            }
            var at = off_t(offset)
            n = try SystemCall.run("sendfile", subject: path) { sendfile(rawValue, source.rawValue, &at, count) }
            if n == 0 { return Int64(offset) }
            offset = Int(at)
        }
        return Int64(offset)
    }
}
