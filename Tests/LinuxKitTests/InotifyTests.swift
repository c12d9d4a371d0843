import Glibc
import LinuxKit
import Testing

/// The inotify record walk over what the kernel really writes: names padded to different lengths.
@Suite("inotify")
struct InotifyTests {
    /// Names of 1 to 255 bytes (NAME_MAX), across the 16-byte padding steps, one multi-byte.
    static let names = [
        "a", "bc", "fifteen-bytes.x", "sixteen-bytes.xy", "seventeen-bytes.z", String(repeating: "m", count: 31),
        String(repeating: "n", count: 32), "zoneinfo-Europe-Berlin", "Zürich", String(repeating: "l", count: 255),
    ]

    @Test func eventsOfVariedNameLengthsInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        let watch = try inotify.addWatch(directory.path, mask: UInt32(IN_CREATE))
        for name in Self.names { try touch(directory.path + "/" + name) }
        let events = inotify.read()
        #expect(events.map(\.name) == Self.names)
        #expect(events.allSatisfy { $0.watch == watch && $0.mask & UInt32(IN_CREATE) != 0 })
        #expect(inotify.read().isEmpty)
    }

    /// More than one 4 KiB read's worth: the walk starts afresh at each read's first record.
    @Test func manyEventsAcrossSeveralReads() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        let watch = try inotify.addWatch(directory.path, mask: UInt32(IN_CREATE | IN_DELETE))
        let names = (0..<40).map { String(repeating: "x", count: 200) + String($0) }
        for name in names { try touch(directory.path + "/" + name) }
        unlink(directory.path + "/" + names[7])
        let events = inotify.read()
        #expect(events.count == 41)
        #expect(events.prefix(40).map(\.name) == names)
        #expect(events.last == Inotify.Event(watch: watch, mask: UInt32(IN_DELETE), name: names[7]))
    }

    @Test func aMissingDirectoryIsATypedError() throws {
        let inotify = try Inotify()
        #expect(throws: SystemCallError(call: "inotify_add_watch", subject: "/nonexistent/linuxkit", errno: ENOENT)) {
            try inotify.addWatch("/nonexistent/linuxkit", mask: UInt32(IN_CREATE))
        }
    }

    private func touch(_ path: String) throws {
        let fd = try SystemCall.run("open", subject: path) { open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600) }
        close(fd)
    }
}
