import Glibc
import LinuxKit

/// The store's rules for paths, over LinuxKit's file calls.
enum Paths {
    static func join(_ dir: String, _ name: String) -> String { FileSystem.join(dir, name) }

    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    /// Creates `path` and any missing parents with mode 0700; an existing directory is left as is.
    static func makeDirectory(_ path: String) throws(StoreError) {
        if let status = try? FileSystem.status(path) {
            guard status.isDirectory else { throw StoreError.io(ENOTDIR, "use the directory", path) }
            return
        }
        var parent = "."
        if let slash = path.dropLast().lastIndex(of: "/") {
            parent = slash == path.startIndex ? "/" : String(path[..<slash])
            if slash != path.startIndex { try makeDirectory(parent) }
        }
        do {
            try FileSystem.makeDirectory(path, permissions: 0o700)
        } catch  where error.errno == EEXIST {
            return
        } catch {
            throw StoreError(error)
        }
        // The new entry must survive a power cut along with the first state written inside it.
        try fsyncDirectory(parent)
    }

    static func fsyncDirectory(_ path: String) throws(StoreError) {
        let dir = try io(FileDescriptor.open(path, .directory))
        defer { dir.close() }
        try io(dir.fsync())
    }

    static func rename(_ from: String, _ to: String) throws(StoreError) {
        try io(FileSystem.rename(from, to: to))
    }

    /// Removes `path`; one that is not there is no failure.
    static func unlink(_ path: String) throws(StoreError) {
        do {
            try FileSystem.unlink(path)
        } catch  where error.errno == ENOENT {
            return
        } catch {
            throw StoreError(error)
        }
    }

    /// The file's bytes, or nil when it does not exist.
    static func readIfPresent(_ path: String) throws(StoreError) -> [UInt8]? {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path)
        } catch  where error.errno == ENOENT {
            return nil
        } catch {
            throw StoreError(error)
        }
        defer { file.close() }
        // The store's own files, read whole.
        return try io(file.readAll(limit: .max))
    }
}
