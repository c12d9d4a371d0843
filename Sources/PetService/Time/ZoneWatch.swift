import Glibc

/// inotify watches on the directory holding `localtime` and `timezone` (`timedatectl
/// set-timezone` replaces the link), and on the directories of the zone files in use: a tzdata
/// upgrade replaces `/usr/share/zoneinfo/Europe/Berlin` by a rename, which no watch on `/etc`
/// sees. The fd becomes readable on any change; `drain()` says whether one concerned those files.
public final class ZoneWatch {
    public let fd: Int32
    let etc: String
    /// The file names that matter in each watched directory, by watch descriptor.
    private var names: [Int32: Set<String>] = [:]

    static let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)

    /// Watches `etc` (normally `/etc`); nil if inotify is unavailable.
    public init?(etc: String = "/etc") {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.etc = etc
        watch(files: [])
        guard !names.isEmpty else {
            close(fd)
            return nil
        }
    }

    /// Watches `etc` and the directories of `files`, dropping the watches no longer needed.
    public func watch(files: [String]) {
        var wanted: [String: Set<String>] = [etc: ["localtime", "timezone"]]
        for file in files {
            guard let slash = file.lastIndex(of: "/") else { continue }
            let directory = slash == file.startIndex ? "/" : String(file[..<slash])
            wanted[directory, default: []].insert(String(file[file.index(after: slash)...]))
        }
        var next: [Int32: Set<String>] = [:]
        // A directory that does not exist (yet) is skipped; the next change elsewhere retries it.
        for (directory, files) in wanted {
            let wd = inotify_add_watch(fd, directory, Self.mask)
            if wd >= 0 { next[wd, default: []].formUnion(files) }
        }
        for wd in names.keys where next[wd] == nil { inotify_rm_watch(fd, wd) }
        names = next
    }

    /// Drains pending events; true if any concerned a watched file.
    public func drain() -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return relevant }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let (wd, length) = buffer.withUnsafeBytes {
                    (
                        $0.load(fromByteOffset: offset, as: Int32.self),
                        Int($0.load(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                if names[wd]?.contains(String(decoding: nameBytes, as: UTF8.self)) == true { relevant = true }
                offset += header + length
            }
        }
    }

    deinit { close(fd) }
}
