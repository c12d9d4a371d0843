import Glibc

/// An inotify watch on the directory holding `localtime`: replacing the link (as
/// `timedatectl set-timezone` does) or rewriting the file makes the fd readable.
public final class ZoneWatch {
    public let fd: Int32

    /// Watches `directory` (normally `/etc`); nil if inotify is unavailable.
    public init?(directory: String = "/etc") {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            return nil
        }
    }

    /// Drains pending events; true if any concerned `localtime` or `timezone`.
    public func drain() -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return relevant }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if name == "localtime" || name == "timezone" { relevant = true }
                offset += header + length
            }
        }
    }

    deinit { close(fd) }
}
