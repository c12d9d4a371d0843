import Glibc
import LinuxKit

/// inotify watches on the directory holding `localtime` and `timezone` (`timedatectl
/// set-timezone` replaces the link), and on the directories of the zone files in use: a tzdata
/// upgrade replaces `/usr/share/zoneinfo/Europe/Berlin` by a rename, which no watch on `/etc`
/// sees. The fd becomes readable on any change; `drain()` says whether one concerned those files.
public final class ZoneWatch {
    private let inotify: Inotify
    let etc: String
    /// The file names that matter in each watched directory, by watch descriptor.
    private var names: [Int32: Set<String>] = [:]

    static let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)

    /// The descriptor to watch for readability.
    public var fd: Int32 { inotify.fd }

    /// Watches `etc` (normally `/etc`); throws when inotify or the watch on `etc` is refused.
    public init(etc: String = "/etc") throws(SystemCallError) {
        inotify = try Inotify()
        self.etc = etc
        names = [try inotify.addWatch(etc, mask: Self.mask): ["localtime", "timezone"]]
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
            if let wd = try? inotify.addWatch(directory, mask: Self.mask) { next[wd, default: []].formUnion(files) }
        }
        for wd in names.keys where next[wd] == nil { inotify.removeWatch(wd) }
        names = next
    }

    /// Drains pending events; true if any concerned a watched file.
    public func drain() -> Bool {
        inotify.read().contains { names[$0.watch]?.contains($0.name) == true }
    }
}
