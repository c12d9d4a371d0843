import Glibc
import LinuxKit

/// Small path and directory helpers over the syscall funnel.
enum Paths {
    static func join(_ dir: String, _ name: String) -> String {
        dir.hasSuffix("/") ? dir + name : dir + "/" + name
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return SystemCall.attempt { lstat(path, &st) } == 0
    }

    /// Creates `path` and any missing parents with mode 0700; an existing directory is left as is.
    static func makeDirectory(_ path: String) throws(StoreError) {
        var st = stat()
        if SystemCall.attempt({ stat(path, &st) }) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw StoreError.io(ENOTDIR, "use the directory", path) }
            return
        }
        var parent = "."
        if let slash = path.dropLast().lastIndex(of: "/") {
            parent = slash == path.startIndex ? "/" : String(path[..<slash])
            if slash != path.startIndex { try makeDirectory(parent) }
        }
        let code = SystemCall.attempt { mkdir(path, 0o700) }
        if code == EEXIST { return }
        if code != 0 { throw StoreError.io(code, "create the directory", path) }
        // The new entry must survive a power cut along with the first state written inside it.
        try fsyncDirectory(parent)
    }

    static func fsyncDirectory(_ path: String) throws(StoreError) {
        let dir = try Descriptor.open(path, O_RDONLY | O_DIRECTORY)
        defer { dir.close() }
        try dir.fsync()
    }

    static func rename(_ from: String, _ to: String) throws(StoreError) {
        try SystemCall.run("rename", path: from) { Glibc.rename(from, to) }
    }

    static func unlink(_ path: String) throws(StoreError) {
        let code = SystemCall.attempt { Glibc.unlink(path) }
        if code != 0 && code != ENOENT { throw StoreError.io(code, "remove", path) }
    }

    /// The file's bytes, or nil when it does not exist.
    static func readIfPresent(_ path: String) throws(StoreError) -> [UInt8]? {
        let file: Descriptor
        do {
            file = try Descriptor.open(path, O_RDONLY)
        } catch  where error.errno == ENOENT {
            return nil
        }
        defer { file.close() }
        return try file.readAll()
    }
}
