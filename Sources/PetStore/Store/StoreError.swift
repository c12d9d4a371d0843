import Glibc
import PetCore

/// Why the store could not do what was asked: a kind to act on and one sentence for a person.
/// The daemon reports every one of these as `StorageFailure` (or, at start-up, exits with it).
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Another process holds the data directory's lock.
        case locked
        /// The data directory is not the user's alone, or something in it is not a regular file of
        /// the user's (a symbolic link, a FIFO, another user's file): refused, nothing followed.
        case unsafe
        /// A file was written by a newer Pet Progress; nothing was touched.
        case newerSchema(found: Int, supported: Int)
        /// A system call failed with this `errno` (`ENOSPC`, `EACCES`, `EROFS`, `EIO`, …).
        case io(errno: Int32)
        /// The caller asked for something that would break the store's rules (a programming error
        /// in the daemon, refused rather than written).
        case inconsistent
        /// A value would leave the bounds the loader checks (petprogress(7) §5): refused, nothing
        /// written, so the daemon never writes what it would refuse to read.
        case outOfBounds
    }

    public let kind: Kind
    public let message: String
    /// True only when a save failed after the new state file was already renamed into place (the
    /// directory fsync failed): the file on disk is then the new state, though perhaps not yet
    /// durable, so the caller should keep the new state in memory to match it. In every other
    /// failure the state file on disk is exactly what it was before the call.
    public let stateReplaced: Bool

    public init(_ kind: Kind, _ message: String, stateReplaced: Bool = false) {
        self.kind = kind
        self.message = message
        self.stateReplaced = stateReplaced
    }

    public var description: String { message }

    /// The `errno` of an I/O failure, else 0.
    public var errno: Int32 {
        if case .io(let code) = kind { return code }
        return 0
    }

    static func io(_ code: Int32, _ operation: String, _ path: String) -> StoreError {
        StoreError(.io(errno: code), "Could not \(operation) \(path): \(describe(code)).")
    }

    /// The refusal of a write that would take `problem`'s value out of its bounds.
    static func outOfBounds(_ problem: BoundsProblem, in file: String) -> StoreError {
        StoreError(.outOfBounds, "Refusing to write \(file): \(problem) (the loader would refuse it); nothing was written.")
    }

    func replacingState() -> StoreError { StoreError(kind, message, stateReplaced: true) }

    /// A plain description with the errno name, and what to do for the common ones.
    static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        switch code {
        case ENOSPC: return "\(text) (ENOSPC); free some disk space"
        case EDQUOT: return "\(text) (EDQUOT); free some space within your quota"
        case EACCES: return "\(text) (EACCES); check the directory's owner and permissions"
        case EPERM: return "\(text) (EPERM); check the directory's owner and permissions"
        case EROFS: return "\(text) (EROFS); the file system is mounted read-only"
        case EIO: return "\(text) (EIO); the disk reported an error"
        case ENOTDIR: return "\(text) (ENOTDIR); the path is not a directory"
        default: return "\(text) (errno \(code))"
        }
    }
}
