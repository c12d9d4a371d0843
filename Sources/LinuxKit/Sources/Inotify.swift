import Glibc

/// A non-blocking inotify instance: add it to an ``EventLoop`` with
/// ``EventLoop/addFD(_:events:handler:)`` and call ``read()`` when it is readable.
public final class Inotify {
    /// One change the kernel reported.
    public struct Event: Equatable, Sendable {
        /// The watch descriptor ``addWatch(_:mask:)`` returned for the directory or file.
        public var watch: Int32
        /// The `IN_*` bits of what happened.
        public var mask: UInt32
        /// The name of the entry inside a watched directory; empty for the watched object itself.
        public var name: String

        /// Creates an event (for tests and for callers that build their own).
        public init(watch: Int32, mask: UInt32, name: String) {
            self.watch = watch
            self.mask = mask
            self.name = name
        }
    }

    /// The descriptor to watch for readability.
    public let fd: Int32

    /// Opens a non-blocking, close-on-exec instance. Fails with `EMFILE` when the user's instances
    /// (128 by default) are used up.
    public init() throws(SystemCallError) {
        fd = try SystemCall.run("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit {
        close(fd)
    }

    /// Watches `path` for the `IN_*` events in `mask`; the watch descriptor its events carry.
    public func addWatch(_ path: String, mask: UInt32) throws(SystemCallError) -> Int32 {
        try SystemCall.run("inotify_add_watch", subject: path) { inotify_add_watch(fd, path, mask) }
    }

    /// Stops a watch. One the kernel already dropped (its directory was deleted) is no error.
    public func removeWatch(_ watch: Int32) {
        _ = SystemCall.attempt { inotify_rm_watch(fd, watch) }
    }

    /// Every event pending now, in the order the kernel queued them (reads until nothing is left).
    public func read() -> [Event] {
        var events: [Event] = []
        // Room for at least one record with the longest name (NAME_MAX), as inotify(7) asks.
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // Until the descriptor has nothing more (EAGAIN).
            let count = (try? SystemCall.read(fd, into: &buffer)) ?? 0
            guard count > 0 else { return events }
            buffer.withUnsafeBytes { events += Self.events(in: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// The records in what one `read` returned: each a `struct inotify_event` followed by `len`
    /// bytes of name, NUL-padded. A record cut short (never from the kernel) ends the walk.
    static func events(in bytes: UnsafeRawBufferPointer) -> [Event] {
        var events: [Event] = []
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + header <= bytes.count {
            let record = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let nameStart = offset + header
            let nameEnd = nameStart + Int(record.len)
            guard nameEnd <= bytes.count else { break }
            let name = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameEnd]).prefix { $0 != 0 }
            events.append(Event(watch: record.wd, mask: record.mask, name: String(decoding: name, as: UTF8.self)))
            offset = nameEnd
        }
        return events
    }
}
