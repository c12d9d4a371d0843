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
        /// This name in the directory, truncated if a crash left one behind (the caller removes
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
        let path = FileSystem.join(directory, name)
        let file: FileDescriptor
        do {
            file = try create(temporary, for: name, in: directory, permissions: permissions)
        } catch {
            throw AtomicReplaceError(failure: error, replaced: false)
        }
        do {
            try file.writeAll(bytes)
            try file.fsync()
            file.close()
            if replacing {
                try FileSystem.rename(file.path, to: path)
            } else {
                try FileSystem.link(file.path, to: path)
                try? FileSystem.unlink(file.path)
            }
        } catch {
            file.close()
            try? FileSystem.unlink(file.path)
            throw AtomicReplaceError(failure: error, replaced: false)
        }
        do {
            let folder = try FileDescriptor.open(directory, .directory)
            defer { folder.close() }
            try folder.fsync()
        } catch {
            throw AtomicReplaceError(failure: error, replaced: true)
        }
    }

    private static func create(
        _ temporary: Temporary, for name: String, in directory: String, permissions: UInt32
    ) throws(SystemCallError) -> FileDescriptor {
        switch temporary {
        case .named(let temporary):
            return try FileDescriptor.open(
                FileSystem.join(directory, temporary), [.writeOnly, .create, .truncate], permissions: permissions)
        case .unique:
            var template = Array(FileSystem.join(directory, ".\(name).XXXXXX").utf8CString)
            let fd = try SystemCall.run("mkstemp", subject: directory) {
                template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            }
            // Glibc's module leaves out mkostemp (a GNU extension): close-on-exec comes after.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let file = FileDescriptor(adopting: fd, path: path)
            // mkstemp makes 0600 less the umask; the caller asked for exactly `permissions`.
            do throws(SystemCallError) {
                try file.setPermissions(permissions)
            } catch {
                file.close()
                try? FileSystem.unlink(path)
                throw error
            }
            return file
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
