import Glibc

/// The same calls on names inside an open directory (the `*at` calls): the directory is the one
/// that was opened, whatever its path leads to since, and no call here follows a symbolic link
/// in the name (`rename`, `link` and `unlink` never do; `status` is `lstat`'s).
extension FileSystem {
    /// What is at `name` in `directory`, a symbolic link itself rather than its target.
    public static func status(_ name: String, in directory: FileDescriptor) throws(SystemCallError) -> FileStatus {
        var info = stat()
        try SystemCall.run("lstat", subject: join(directory.path, name)) {
            fstatat(directory.rawValue, name, &info, AT_SYMLINK_NOFOLLOW)
        }
        return FileStatus(info)
    }

    /// Whether anything (a dangling link too) is at `name` in `directory`.
    public static func exists(_ name: String, in directory: FileDescriptor) -> Bool {
        (try? status(name, in: directory)) != nil
    }

    /// Creates the directory `name` in `directory`.
    public static func makeDirectory(
        _ name: String, in directory: FileDescriptor, permissions: UInt32 = 0o700
    ) throws(SystemCallError) {
        try SystemCall.run("mkdir", subject: join(directory.path, name)) {
            mkdirat(directory.rawValue, name, permissions)
        }
    }

    /// Moves `source` in `from` to `target` in `to` (default: the same directory), replacing what is
    /// there, in one step.
    public static func rename(
        _ source: String, to target: String, in from: FileDescriptor, into to: FileDescriptor? = nil
    ) throws(SystemCallError) {
        try SystemCall.run("rename", subject: join(from.path, source)) {
            renameat(from.rawValue, source, (to ?? from).rawValue, target)
        }
    }

    /// Gives `source` in `from` the name `target` in `to` too; `EEXIST` if something is there.
    public static func link(
        _ source: String, to target: String, in from: FileDescriptor, into to: FileDescriptor? = nil
    ) throws(SystemCallError) {
        try SystemCall.run("link", subject: join((to ?? from).path, target)) {
            linkat(from.rawValue, source, (to ?? from).rawValue, target, 0)
        }
    }

    /// Removes the name `name` from `directory` (with `directory` true, an empty directory).
    public static func unlink(_ name: String, in folder: FileDescriptor, directory: Bool = false)
        throws(SystemCallError)
    {
        try SystemCall.run(directory ? "rmdir" : "unlink", subject: join(folder.path, name)) {
            unlinkat(folder.rawValue, name, directory ? AT_REMOVEDIR : 0)
        }
    }

    /// Calls `body` with the bytes of each name in the open `directory` (`.` and `..` included).
    public static func forEachName(
        in directory: FileDescriptor, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(SystemCallError) {
        // fdopendir takes over the descriptor it is given: a fresh one, so `directory` stays open
        // and the listing starts at the beginning.
        let fd = try SystemCall.run("open", subject: directory.path) {
            openat(directory.rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard let handle = fdopendir(fd) else {
            let code = errno
            _ = Glibc.close(fd)
            throw SystemCallError(call: "opendir", subject: directory.path, errno: code)
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            withUnsafeBytes(of: entry.pointee.d_name) { name in
                body(UnsafeRawBufferPointer(rebasing: name[..<(name.firstIndex(of: 0) ?? name.count)]))
            }
        }
    }
}
