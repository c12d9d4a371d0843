import Glibc
import LinuxKit

/// `petctl export --output`: the whole file or nothing, through LinuxKit's atomic replace (a
/// temporary file beside it, made 0600, written, fsynced, then moved into place — linked, which
/// refuses to replace an existing file, unless replacing was asked for — and the directory
/// fsynced, best effort: some file systems refuse).
enum AtomicFile {
    /// Why a write failed: one sentence naming the file.
    struct Failure: Error {
        let sentence: String
    }

    /// Whether something (a file, a directory, a dangling link) is at `path`.
    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    /// Writes `bytes` to `path`; with `replace` false an existing file is left alone and the
    /// failure says so.
    static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws(Failure) {
        let directory = directoryName(path)
        do {
            try AtomicReplace.write(
                bytes, to: baseName(path), in: directory, through: .unique, replacing: replace)
        } catch  where error.replaced {
            return  // only the directory fsync failed: the file is in place
        } catch {
            let why = error.failure.reason
            switch (error.failure.call, error.failure.errno) {
            case ("mkstemp", _): throw Failure(sentence: tr("cannot create a file in %s: %s", directory, why))
            case ("link", EEXIST): throw Failure(sentence: tr("%s already exists; add --force to replace it", path))
            default: throw Failure(sentence: tr("cannot write %s: %s", path, why))
            }
        }
    }

    static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func baseName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
