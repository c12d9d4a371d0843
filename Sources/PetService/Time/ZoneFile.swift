import Glibc
import LinuxKit

/// Reads a zone file for `LocalZone`: a regular file of at most `maximumSize` bytes. Whatever `TZ`
/// names — a FIFO that would block, a directory, `/dev/zero`, a huge file — is refused with a
/// reason instead of hanging or filling memory.
enum ZoneFile {
    /// Real TZif files are under 4 KiB; the largest in tzdata is about 3 KiB.
    static let maximumSize = 256 * 1024

    /// The file's bytes, or why they cannot be had (a sentence fragment).
    static func read(_ path: String) -> Result<[UInt8], ZoneFileError> {
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ZoneFileError(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(ZoneFileError(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(ZoneFileError("not a regular file")) }
        guard info.st_size <= maximumSize else {
            return .failure(ZoneFileError("\(info.st_size) bytes, more than a zone file holds"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let n: Int
            do {
                n = try SystemCall.read(fd, into: &bytes, at: count)
            } catch {
                return .failure(ZoneFileError(errno: error.errno))
            }
            if n == 0 { break }
            count += n
        }
        // One byte more than stat said is there: the file grew while being read.
        guard count <= Int(info.st_size) else { return .failure(ZoneFileError("changed while it was read")) }
        return .success(Array(bytes.prefix(count)))
    }

    /// The path with every symbolic link resolved, or nil if it cannot be.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Where a symbolic link points, or nil when `path` is not one.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether anything, even a dangling link, is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}

/// Why a zone file could not be read; `missing` when there is no such file.
struct ZoneFileError: Error {
    let reason: String
    let missing: Bool

    init(_ reason: String) {
        self.reason = reason
        missing = false
    }

    init(errno code: Int32) {
        reason = String(cString: strerror(code)).lowercased()
        missing = code == ENOENT || code == ENOTDIR
    }
}
