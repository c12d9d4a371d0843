import Glibc
import LinuxKit

/// The store's rules for paths, over LinuxKit's file calls.
enum Paths {
    static func join(_ dir: String, _ name: String) -> String { FileSystem.join(dir, name) }

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
        let folder = try io(FileDescriptor.open(parent, .directory))
        defer { folder.close() }
        try io(folder.fsync())
    }
}
