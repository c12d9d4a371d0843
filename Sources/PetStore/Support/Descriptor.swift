import Glibc
import LinuxKit

/// An open file descriptor and the path it came from (for error sentences). Not closed
/// automatically: the owner closes it, so no descriptor outlives a failed step unnoticed.
struct Descriptor {
    let fd: Int32
    let path: String

    /// Files are created 0600 (the umask can only narrow that); `O_CLOEXEC` so no child inherits them.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(StoreError) -> Descriptor {
        let fd = try SystemCall.run("open", path: path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return Descriptor(fd: fd, path: path)
    }

    func close() { _ = Glibc.close(fd) }

    func fsync() throws(StoreError) {
        try SystemCall.run("fsync", path: path) { Glibc.fsync(fd) }
    }

    func size() throws(StoreError) -> Int64 {
        var st = stat()
        try SystemCall.run("stat", path: path) { fstat(fd, &st) }
        return Int64(st.st_size)
    }

    func truncate(to length: Int64) throws(StoreError) {
        try SystemCall.run("truncate", path: path) { ftruncate(fd, off_t(length)) }
    }

    /// Writes every byte (a short write is continued, not mistaken for success).
    func writeAll(_ bytes: [UInt8]) throws(StoreError) {
        var done = 0
        while done < bytes.count {
            let n = try SystemCall.run("write", path: path) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            }
            if n == 0 { throw StoreError.io(EIO, "write", path) }
            done += n
        }
    }

    /// Reads `count` bytes at `offset` (fewer only at the end of the file).
    func read(at offset: Int64, count: Int) throws(StoreError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = try SystemCall.run("read", path: path) {
                buffer.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress! + got, count - got, off_t(offset) + off_t(got))
                }
            }
            if n == 0 { break }
            got += n
        }
        if got < count { buffer.removeLast(count - got) }
        return buffer
    }

    /// The whole file.
    func readAll() throws(StoreError) -> [UInt8] {
        try read(at: 0, count: Int(try size()))
    }
}
