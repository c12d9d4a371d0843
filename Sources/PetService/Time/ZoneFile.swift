import Glibc
import LinuxKit

/// Reads a zone file for `LocalZone`: a regular file of at most `maximumSize` bytes. Whatever `TZ`
/// names — a FIFO that would block, a directory, `/dev/zero`, a huge file — is refused with a
/// reason instead of hanging or filling memory.
enum ZoneFile {
    /// Real TZif files are under 4 KiB; the largest in tzdata is about 3 KiB.
    static let maximumSize = 256 * 1024

    /// The file's bytes, or why they cannot be had (a sentence fragment). LinuxKit's one
    /// small-file read, with a link followed (`/etc/localtime` is one) and any owner (tzdata is
    /// root's).
    static func read(_ path: String) -> Result<[UInt8], ZoneFileError> {
        do throws(SmallFile.Failure) {
            return .success(try SmallFile.read(path, limit: maximumSize, links: .followed, owner: .anyone))
        } catch {
            switch error {
            case .missing: return .failure(ZoneFileError(errno: ENOENT))
            case .notRegular: return .failure(ZoneFileError("not a regular file"))
            case .tooLarge(let size, _): return .failure(ZoneFileError("\(size) bytes, more than a zone file holds"))
            case .system(let failure): return .failure(ZoneFileError(errno: failure.errno))
            case .link, .notOurs: return .failure(ZoneFileError(error.description))
            }
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
