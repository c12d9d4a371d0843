import CLinux
import Glibc

/// Writing a whole file so that a reader, or the next start after a power cut, sees the old file
/// or the new one, never a part: a temporary file in the same directory is written and fsynced,
/// renamed over the file (or linked, where an existing file must not be replaced), and the
/// directory fsynced. Before the rename (or link) a failure leaves the old file as it was and
/// removes the temporary; after it only the directory fsync can fail, and the error says the file
/// was replaced.
public enum AtomicReplace {
    /// The temporary file beside the target.
    public enum Temporary: Sendable {
        /// This name in the directory, created anew (one a crash left behind is removed first; the caller removes
        /// leftovers it recognises).
        case named(String)
        /// A fresh `.<name>.XXXXXX` from `mkstemp`, for callers that may run side by side.
        case unique
    }

    /// Writes `bytes` as `directory/name` with `permissions`; with `replacing` false an existing
    /// file is left alone and the error is `link`'s `EEXIST`.
    public static func write(
        _ bytes: [UInt8], to name: String, in directory: String, through temporary: Temporary,
        replacing: Bool = true, permissions: UInt32 = 0o600
    ) throws(AtomicReplaceError) {
        let folder: FileDescriptor
        do {
            folder = try FileDescriptor.open(directory, .directory)
        } catch {
            throw AtomicReplaceError(failure: error, replaced: false)
        }
        defer { folder.close() }
        try write(
            bytes, to: name, in: folder, through: temporary, replacing: replacing, permissions: permissions)
    }

    /// Writes `bytes` as `name` in the open `directory`. No name is followed if it is a symbolic
    /// link: the temporary file is created new (`O_EXCL`; one a crash left behind is removed
    /// first), and `rename`/`link` replace the name itself.
    public static func write(
        _ bytes: [UInt8], to name: String, in directory: FileDescriptor, through temporary: Temporary,
        replacing: Bool = true, permissions: UInt32 = 0o600
    ) throws(AtomicReplaceError) {
        let file: FileDescriptor
        let scratch: String
        do {
            (file, scratch) = try create(temporary, for: name, in: directory, permissions: permissions)
        } catch {
            throw AtomicReplaceError(failure: error, replaced: false)
        }
        do {
            try file.writeAll(bytes)
            try file.fsync()
            file.close()
            if replacing {
                try FileSystem.rename(scratch, to: name, in: directory)
            } else {
                try FileSystem.link(scratch, to: name, in: directory)
                try? FileSystem.unlink(scratch, in: directory)
            }
        } catch {
            file.close()
            try? FileSystem.unlink(scratch, in: directory)
            throw AtomicReplaceError(failure: error, replaced: false)
        }
        do {
            try directory.fsync()
        } catch {
            throw AtomicReplaceError(failure: error, replaced: true)
        }
    }

    /// The temporary file, open for writing, and its name in `directory`.
    private static func create(
        _ temporary: Temporary, for name: String, in directory: FileDescriptor, permissions: UInt32
    ) throws(SystemCallError) -> (FileDescriptor, String) {
        switch temporary {
        case .named(let temporary):
            let options: FileDescriptor.Options = [.writeOnly, .create, .exclusive, .noFollow]
            do {
                return (
                    try FileDescriptor.open(temporary, options, permissions: permissions, relativeTo: directory),
                    temporary
                )
            } catch  where error.errno == EEXIST {
                // Left by a crash (or planted): removed, never opened.
                try FileSystem.unlink(temporary, in: directory)
                return (
                    try FileDescriptor.open(temporary, options, permissions: permissions, relativeTo: directory),
                    temporary
                )
            }
        case .unique:
            // mkostemp creates with O_EXCL, so it follows no link either; close-on-exec from the start.
            var template = Array(FileSystem.join(directory.path, ".\(name).XXXXXX").utf8CString)
            let fd = try SystemCall.run("mkostemp", subject: directory.path) {
                template.withUnsafeMutableBufferPointer { mkostemp($0.baseAddress!, O_CLOEXEC) }
            }
            let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let file = FileDescriptor(adopting: fd, path: path)
            let scratch = String(path.split(separator: "/").last ?? "")
            // mkstemp makes 0600 less the umask; the caller asked for exactly `permissions`.
            do throws(SystemCallError) {
                try file.setPermissions(permissions)
            } catch {
                file.close()
                try? FileSystem.unlink(scratch, in: directory)
                throw error
            }
            return (file, scratch)
        }
    }
}

/// A failed atomic replace: the call that failed, and whether the file had already been replaced
/// (only the directory fsync failed, so the new file is in place but perhaps not yet durable).
public struct AtomicReplaceError: Error, Equatable, Sendable {
    public var failure: SystemCallError
    public var replaced: Bool

    public init(failure: SystemCallError, replaced: Bool) {
        self.failure = failure
        self.replaced = replaced
    }
}
