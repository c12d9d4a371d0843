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
    /// The owner's user id.
    public var owner: UInt32
    /// The permission bits (`0o7777` of the mode).
    public var permissions: UInt32
    /// How many names the file has.
    public var linkCount: UInt64
    /// What kind of file it is, for sentences: "a regular file", "a FIFO", "a symbolic link", …
    public var kind: String
    /// When its contents last changed (Unix seconds).
    public var modified: Int64 = 0

    init(_ info: stat) {
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        size = Int64(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        owner = UInt32(info.st_uid)
        permissions = UInt32(info.st_mode & 0o7777)
        linkCount = UInt64(info.st_nlink)
        modified = Int64(info.st_mtim.tv_sec)
        kind =
            switch info.st_mode & S_IFMT {
            case S_IFREG: "a regular file"
            case S_IFDIR: "a directory"
            case S_IFIFO: "a FIFO"
            case S_IFLNK: "a symbolic link"
            case S_IFSOCK: "a socket"
            case S_IFCHR, S_IFBLK: "a device"
            default: "an unknown kind of file"
            }
    }
}
