import Glibc

/// What `stat` says about a file, in Swift types.
public struct FileStatus: Equatable, Sendable {
    /// A regular file (not a directory, FIFO, device, socket or link).
    public var isRegularFile: Bool
    public var isDirectory: Bool
    /// The size in bytes.
    public var size: Int64
    /// The device and inode: together they name one file, whatever paths lead to it.
    public var device: UInt64
    public var inode: UInt64

    init(_ info: stat) {
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        size = Int64(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
