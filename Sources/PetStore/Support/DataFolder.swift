import Glibc
import LinuxKit

/// The data directory, open (petprogress(7) §5): every file in it is reached by name through this
/// descriptor, never through a symbolic link, and used only once `fstat` shows a regular file of
/// ours. Opens never wait: a FIFO is refused, not waited on.
final class DataFolder {
    let file: FileDescriptor
    var path: String { file.path }

    private init(_ file: FileDescriptor) { self.file = file }

    /// Opens the directory at `path` (created 0700 with its parents when missing). Refuses
    /// (`.unsafe`) a directory that is not the user's, a path whose last component is a symbolic
    /// link (it is opened without following one), and a directory inside one others can write to
    /// unless that parent is sticky (like /tmp: no one else can rename or remove the entry, which is
    /// the user's). One of the user's that group or others may read, write or enter is repaired to
    /// the user's bits alone (0700), and the sentence saying so comes back with it (petprogress(7) §5).
    static func open(_ path: String) throws(StoreError) -> (folder: DataFolder, repaired: String?) {
        try Paths.makeDirectory(path)
        // "data/" would follow a link named data: the last component is opened as itself.
        var own = Substring(path)
        while own.count > 1, own.hasSuffix("/") { own = own.dropLast() }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(String(own), [.directory, .nonBlocking, .noFollow])
        } catch  where error.errno == ELOOP || error.errno == ENOTDIR {
            guard let target = FileSystem.linkTarget(String(own)) else { throw StoreError(error) }
            throw StoreError(
                .unsafe,
                "The data directory \(path) is a symbolic link (to \(target)); Pet Progress does not follow a link to its data directory: give --data-dir the directory itself."
            )
        } catch {
            throw StoreError(error)
        }
        let folder = DataFolder(file)
        let status = try io(folder.file.status())
        guard status.owner == geteuid() else {
            throw StoreError(
                .unsafe,
                "The data directory \(path) belongs to user \(status.owner), not to you (user \(geteuid())); Pet Progress keeps its data only in a directory of your own: choose another --data-dir, or give this one to yourself."
            )
        }
        let parent = parentPath(String(own))
        if let around = try? FileSystem.status(parent), around.permissions & 0o002 != 0, around.permissions & 0o1000 == 0 {
            throw StoreError(
                .unsafe,
                "The data directory \(path) is inside \(parent), which others can write to (mode \(octal(around.permissions))) and is not sticky, so another user could replace it; choose a --data-dir in a directory of your own."
            )
        }
        guard status.permissions & 0o077 != 0 else { return (folder, nil) }
        let safe = status.permissions & ~0o077
        try io(folder.file.setPermissions(safe))
        return (
            folder,
            "The data directory \(path) was open to group or others (mode \(octal(status.permissions))); its mode is now \(octal(safe))."
        )
    }

    /// The directory `path` is in (`.` for a bare name).
    private static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The subdirectory `name`, which must be a directory of ours (not a link to one).
    func folder(_ name: String) throws(StoreError) -> DataFolder {
        DataFolder(try checked(name, [.directory, .nonBlocking]))
    }

    func path(_ name: String) -> String { Paths.join(path, name) }

    /// Opens `name` without following a link or waiting on a FIFO; refuses (`.unsafe`) anything but
    /// a regular file of ours. (A directory is allowed with `.directory`.)
    func open(_ name: String, _ options: FileDescriptor.Options = []) throws(StoreError) -> FileDescriptor {
        try checked(name, options.union(.nonBlocking))
    }

    /// `open`, or nil when there is nothing at `name`.
    func openIfPresent(_ name: String, _ options: FileDescriptor.Options = []) throws(StoreError) -> FileDescriptor? {
        do {
            return try open(name, options)
        } catch  where error.errno == ENOENT {
            return nil
        }
    }

    /// The bytes of the file `name`, or nil when there is none.
    func readIfPresent(_ name: String) throws(StoreError) -> [UInt8]? {
        guard let file = try openIfPresent(name) else { return nil }
        defer { file.close() }
        // The store's own files, read whole.
        return try io(file.readAll(limit: .max))
    }

    func exists(_ name: String) -> Bool { FileSystem.exists(name, in: file) }

    func rename(_ source: String, _ target: String, into other: DataFolder? = nil) throws(StoreError) {
        try io(FileSystem.rename(source, to: target, in: file, into: other?.file))
    }

    func link(_ source: String, _ target: String, into other: DataFolder? = nil) throws(StoreError) {
        try io(FileSystem.link(source, to: target, in: file, into: other?.file))
    }

    /// Removes `name`; one that is not there is no failure.
    func unlink(_ name: String, directory: Bool = false) throws(StoreError) {
        do {
            try FileSystem.unlink(name, in: file, directory: directory)
        } catch  where error.errno == ENOENT {
            return
        } catch {
            throw StoreError(error)
        }
    }

    func makeDirectory(_ name: String) throws(StoreError) { try io(FileSystem.makeDirectory(name, in: file)) }

    func fsync() throws(StoreError) { try io(file.fsync()) }

    /// Calls `body` with the bytes of each name in the directory (`.` and `..` included).
    func forEachName(_ body: (UnsafeRawBufferPointer) -> Void) throws(StoreError) {
        try io(FileSystem.forEachName(in: file, body))
    }

    /// The names in the directory, without `.` and `..`.
    func names() throws(StoreError) -> [String] {
        var names: [String] = []
        try forEachName { bytes in
            let name = String(decoding: bytes, as: UTF8.self)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private func checked(_ name: String, _ options: FileDescriptor.Options) throws(StoreError) -> FileDescriptor {
        let opened: FileDescriptor
        do {
            opened = try FileDescriptor.open(name, options.union(.noFollow), relativeTo: file)
        } catch  where error.errno == ELOOP {
            throw StoreError(
                .unsafe,
                "\(path(name)) is a symbolic link; Pet Progress follows no link in its data directory: move it away.")
        } catch  where error.errno == ENXIO {
            // A FIFO without a reader, opened for writing without waiting.
            throw refusal(name, try io(FileSystem.status(name, in: file)), options)
        } catch {
            throw StoreError(error)
        }
        let status = try io(opened.status())
        let wanted = options.contains(.directory) ? status.isDirectory : status.isRegularFile
        guard wanted, status.owner == geteuid() else {
            opened.close()
            throw refusal(name, status, options)
        }
        return opened
    }

    private func refusal(_ name: String, _ status: FileStatus, _ options: FileDescriptor.Options) -> StoreError {
        let what = status.owner == geteuid() ? status.kind : "\(status.kind) of user \(status.owner)"
        return StoreError(
            .unsafe,
            "\(path(name)) is \(what); Pet Progress uses only \(options.contains(.directory) ? "directories" : "regular files") of its own in its data directory: move it away."
        )
    }
}

private func octal(_ mode: UInt32) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
