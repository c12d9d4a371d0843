import Glibc
import LinuxKit

/// A pipe's two ends, closed by `close()`.
struct Pipe {
    let read: Int32
    let write: Int32

    init(nonBlocking: Bool = false) throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&fds) }
        read = fds[0]
        write = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        }
    }

    func close() {
        _ = Glibc.close(read)
        _ = Glibc.close(write)
    }
}

/// A fresh 0700 directory under `/tmp`, removed with what is in it by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws(SystemCallError) {
        var template = Array("/tmp/linuxkit-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw SystemCallError(call: "mkdtemp", errno: errno) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the files directly inside, then the directory (the tests make no subdirectories).
    func remove() {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}
