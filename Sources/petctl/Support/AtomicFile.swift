import Glibc

/// Writing a whole file so that a reader sees the old file or the new one, never a part: a
/// temporary file in the same directory, written, fsynced and made 0600, then moved into place —
/// with `link`, which refuses to replace an existing file, unless replacing was asked for, then
/// `rename` — and the directory fsynced (SPEC §5's recipe, for `petctl export --output`).
enum AtomicFile {
    /// Why a write failed: one sentence naming the file.
    struct Failure: Error {
        let sentence: String
    }

    /// Whether something (a file, a directory, a dangling link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Writes `bytes` to `path`; with `replace` false an existing file is left alone and the
    /// failure says so.
    static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws(Failure) {
        let directory = directoryName(path)
        var template = Array("\(directory)/.\(baseName(path)).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw failure("cannot create a file in \(directory)") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(Failure) {
            defer { close(fd) }
            guard Output.writeAll(bytes, to: fd), fchmod(fd, 0o600) == 0, fsync(fd) == 0 else {
                throw failure("cannot write \(path)")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        if replace {
            guard rename(temporary, path) == 0 else {
                let failed = failure("cannot write \(path)")
                unlink(temporary)
                throw failed
            }
        } else {
            let linked = link(temporary, path) == 0
            let cause = errno
            unlink(temporary)
            guard linked else {
                errno = cause
                throw cause == EEXIST
                    ? Failure(sentence: "\(path) already exists; add --force to replace it")
                    : failure("cannot write \(path)")
            }
        }
        syncDirectory(directory)
    }

    /// A rename is durable once its directory is: best effort (some file systems refuse).
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func failure(_ what: String) -> Failure {
        Failure(sentence: "\(what): \(String(cString: strerror(errno)))")
    }

    static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func baseName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
