import Glibc

/// A small file read whole, the one way every reader above the funnel does it: opened without
/// waiting (a FIFO would block the open until a writer came), without following a link in its last
/// component, only if it is a regular file of ours, and never more than a bound (a huge file, or
/// `/dev/zero` behind a link, cannot fill memory). Each relaxation is named at the call site:
/// `links: .followed` for a user's configuration a dotfile manager links in place, or for zone
/// files (`/etc/localtime` is a link); `owner: .anyone` for system files and for what another
/// process passed us.
public enum SmallFile {
    /// Whether a symbolic link as the path's last component is refused (`O_NOFOLLOW`) or followed.
    public enum Links: Sendable { case refused, followed }
    /// Whether the file must belong to the effective user, or may belong to anyone.
    public enum Owner: Sendable { case us, anyone }

    /// Why a file could not be had.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing at the path (`ENOENT`, or `ENOTDIR` for a path through a non-directory).
        case missing
        /// A link where links are refused.
        case link
        /// Not a regular file: "a FIFO", "a directory", "a device", … (`FileStatus.kind`).
        case notRegular(kind: String)
        /// More bytes than the bound (as `fstat` said, or as read when the file grew meanwhile).
        case tooLarge(size: Int64, limit: Int)
        /// Owned by another user where it must be ours.
        case notOurs(owner: UInt32)
        /// The call that failed otherwise.
        case system(SystemCallError)

        /// A sentence fragment, in English, for logs and the daemon's problems.
        public var description: String {
            switch self {
            case .missing: "it does not exist"
            case .link: "it is a symbolic link"
            case .notRegular(let kind): "it is \(kind), not a regular file"
            case .tooLarge(let size, let limit): "it is larger than \(limit) bytes (\(size))"
            case .notOurs(let owner): "it belongs to another user (uid \(owner))"
            case .system(let error): error.reason
            }
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them.
    public static func read(_ path: String, limit: Int, links: Links = .refused, owner: Owner = .us)
        throws(Failure) -> [UInt8]
    {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, links == .refused ? [.nonBlocking, .noFollow] : .nonBlocking)
        } catch {
            switch error.errno {
            case ENOENT, ENOTDIR: throw .missing
            case ELOOP where links == .refused: throw .link
            default: throw .system(error)
            }
        }
        defer { file.close() }
        return try read(file, limit: limit, owner: owner)
    }

    /// The open file's status once it passes the rules every bounded read and map follows (`fstat`
    /// only): a regular file, ours unless `owner` is `.anyone`, at most `limit` bytes.
    public static func checked(_ file: FileDescriptor, limit: Int, owner: Owner) throws(Failure) -> FileStatus {
        let status: FileStatus
        do {
            status = try file.status()
        } catch {
            throw .system(error)
        }
        guard status.isRegularFile else { throw .notRegular(kind: status.kind) }
        if owner == .us, status.owner != geteuid() { throw .notOurs(owner: status.owner) }
        guard status.size <= Int64(limit) else { throw .tooLarge(size: status.size, limit: limit) }
        return status
    }

    /// The bytes of an open file from its start to its end, at most `limit` of them, under the
    /// same rules. Only `fstat` and `pread`: the descriptor's flags and position are left as they
    /// are (one received from another process shares them with its sender), and a regular file's
    /// read never waits.
    public static func read(_ file: FileDescriptor, limit: Int, owner: Owner = .us) throws(Failure) -> [UInt8] {
        let status = try checked(file, limit: limit, owner: owner)
        var bytes: [UInt8]
        do {
            // One byte more than fstat said: a file that grew since is read on, to the bound's
            // first byte past it at most.
            bytes = try file.read(at: 0, count: Int(status.size) + 1)
            if bytes.count > Int(status.size), bytes.count <= limit {
                bytes += try file.read(at: Int64(bytes.count), count: limit + 1 - bytes.count)
            }
        } catch {
            throw .system(error)
        }
        guard bytes.count <= limit else { throw .tooLarge(size: Int64(bytes.count), limit: limit) }
        return bytes
    }
}
