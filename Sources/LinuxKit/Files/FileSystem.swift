import Glibc

/// Calls on paths rather than open files, through the funnel (`EINTR` retried, typed errors
/// naming the call and the path).
public enum FileSystem {
    /// `name` inside `directory`, with one slash between them.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// What is at `path`; with `followingLinks` false, a symbolic link itself (`lstat`).
    public static func status(_ path: String, followingLinks: Bool = true) throws(SystemCallError) -> FileStatus {
        var info = stat()
        if followingLinks {
            try SystemCall.run("stat", subject: path) { stat(path, &info) }
        } else {
            try SystemCall.run("lstat", subject: path) { lstat(path, &info) }
        }
        return FileStatus(info)
    }

    /// Whether anything is at `path`; with `followingLinks` false a dangling link counts too.
    public static func exists(_ path: String, followingLinks: Bool = false) -> Bool {
        (try? status(path, followingLinks: followingLinks)) != nil
    }

    /// Creates one directory (its parent must exist).
    public static func makeDirectory(_ path: String, permissions: UInt32 = 0o700) throws(SystemCallError) {
        try SystemCall.run("mkdir", subject: path) { mkdir(path, permissions) }
    }

    /// Moves `source` to `target`, replacing what is there, in one step.
    public static func rename(_ source: String, to target: String) throws(SystemCallError) {
        try SystemCall.run("rename", subject: source) { Glibc.rename(source, target) }
    }

    /// Gives `source`'s file the name `target` too; `EEXIST` if something is there already.
    public static func link(_ source: String, to target: String) throws(SystemCallError) {
        try SystemCall.run("link", subject: target) { Glibc.link(source, target) }
    }

    /// Removes the name `path`.
    public static func unlink(_ path: String) throws(SystemCallError) {
        try SystemCall.run("unlink", subject: path) { Glibc.unlink(path) }
    }

    /// Removes the empty directory `path`.
    public static func removeDirectory(_ path: String) throws(SystemCallError) {
        try SystemCall.run("rmdir", subject: path) { rmdir(path) }
    }

    /// The path with every symbolic link resolved, or nil if it cannot be.
    public static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Where a symbolic link points, or nil when `path` is not one.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Calls `body` with the bytes of each name in `directory` (`.` and `..` included), in the
    /// directory's order; matching on bytes keeps a long listing cheap.
    public static func forEachName(
        in directory: String, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(SystemCallError) {
        guard let handle = opendir(directory) else {
            throw SystemCallError(call: "opendir", subject: directory, errno: errno)
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            withUnsafeBytes(of: entry.pointee.d_name) { name in
                body(UnsafeRawBufferPointer(rebasing: name[..<(name.firstIndex(of: 0) ?? name.count)]))
            }
        }
    }
}
