import Glibc

/// The mutation floor: the bare durable replace a store must do per change (petprogress(7) §5: write a
/// temporary file, fsync it, rename it over the file, fsync the directory), in a loop, with
/// nothing else — same file size, same disk as the daemon's data directory.
enum WriteFloor {
    /// Replaces `directory/state.json` `count` times with `size` bytes; replaces per second.
    static func run(directory: String, size: Int, count: Int) throws -> Double {
        mkdir(directory, 0o700)
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: max(size, 1))
        let temporary = directory + "/state.json.tmp"
        let target = directory + "/state.json"
        let folder = open(directory, O_RDONLY | O_DIRECTORY)
        guard folder >= 0 else { throw FloorError("cannot open \(directory)") }
        defer { close(folder) }
        let started = Monotonic.now()
        for _ in 0..<count {
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw FloorError("cannot create \(temporary)") }
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd)
            close(fd)
            guard written == bytes.count, synced == 0, rename(temporary, target) == 0, fsync(folder) == 0 else {
                throw FloorError("write, fsync or rename failed in \(directory): errno \(errno)")
            }
        }
        return Double(count) / (Double(Monotonic.now() - started) / 1e6)
    }

    /// The size of a file, or nil.
    static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}

struct FloorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
