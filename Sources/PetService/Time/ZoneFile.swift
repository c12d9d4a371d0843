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
        do throws(SystemCallError) {
            // Non-blocking: opening a FIFO must not wait for a writer.
            let file = try FileDescriptor.open(path, .nonBlocking)
            defer { file.close() }
            let status = try file.status()
            guard status.isRegularFile else { return .failure(ZoneFileError("not a regular file")) }
            guard status.size <= maximumSize else {
                return .failure(ZoneFileError("\(status.size) bytes, more than a zone file holds"))
            }
            do {
                return .success(try file.readAll(limit: Int(status.size)))
            } catch  where error.errno == EFBIG {
                // More than stat said is there: the file grew while being read.
                return .failure(ZoneFileError("changed while it was read"))
            }
        } catch {
            return .failure(ZoneFileError(errno: error.errno))
        }
    }

    /// The path with every symbolic link resolved, or nil if it cannot be.
    static func resolved(_ path: String) -> String? { FileSystem.resolved(path) }

    /// Where a symbolic link points, or nil when `path` is not one.
    static func linkTarget(_ path: String) -> String? { FileSystem.linkTarget(path) }

    /// Whether anything, even a dangling link, is at `path`.
    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }
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
