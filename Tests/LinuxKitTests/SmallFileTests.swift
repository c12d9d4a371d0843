import Glibc
import LinuxKit
import Testing

/// LinuxKit's one small-file read (`SmallFile`), which the stage file, the zone files, the import
/// and the Today screen's note all use: it never waits on a FIFO, refuses a link unless told to
/// follow it, reads only a regular file (of ours unless told otherwise), and never more than its
/// bound.
@Suite("Small files")
struct SmallFileTests {
    static func write(_ text: String, to path: String) throws {
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
        try file.writeAll(Array(text.utf8))
        file.close()
    }

    @Test func readsARegularFileOfOursWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/ten"
        try Self.write("0123456789", to: path)
        #expect(try SmallFile.read(path, limit: 10) == Array("0123456789".utf8))
        #expect(try SmallFile.read(path, limit: 1 << 20) == Array("0123456789".utf8))
    }

    @Test func nothingThereIsMissing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: SmallFile.Failure.missing) { try SmallFile.read(directory.path + "/nothing", limit: 10) }
        // A path through a file, not a directory, is missing too (ENOTDIR).
        try Self.write("x", to: directory.path + "/file")
        #expect(throws: SmallFile.Failure.missing) { try SmallFile.read(directory.path + "/file/x", limit: 10) }
    }

    @Test func theBoundIsKeptByteForByte() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/ten"
        try Self.write("0123456789", to: path)
        #expect(throws: SmallFile.Failure.tooLarge(size: 10, limit: 9)) { try SmallFile.read(path, limit: 9) }
        // A huge sparse file is refused by its size, before a byte is read.
        let huge = directory.path + "/huge"
        try Self.write("", to: huge)
        #expect(truncate(huge, 1 << 40) == 0)
        #expect(throws: SmallFile.Failure.tooLarge(size: 1 << 40, limit: 1 << 20)) {
            try SmallFile.read(huge, limit: 1 << 20)
        }
    }

    @Test func aLinkIsRefusedUnlessFollowed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.path + "/target"
        let link = directory.path + "/link"
        try Self.write("through the link", to: target)
        #expect(symlink(target, link) == 0)
        #expect(throws: SmallFile.Failure.link) { try SmallFile.read(link, limit: 100) }
        #expect(try SmallFile.read(link, limit: 100, links: .followed) == Array("through the link".utf8))
        // A followed link to a device that never ends is refused by its type, before a read.
        let zero = directory.path + "/zero"
        #expect(symlink("/dev/zero", zero) == 0)
        #expect(throws: SmallFile.Failure.notRegular(kind: "a device")) {
            try SmallFile.read(zero, limit: 100, links: .followed, owner: .anyone)
        }
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SmallFile.Failure.notRegular(kind: "a FIFO")) { try SmallFile.read(fifo, limit: 100) }
        #expect(throws: SmallFile.Failure.notRegular(kind: "a directory")) {
            try SmallFile.read(directory.path, limit: 100)
        }
    }

    /// A file of another user: refused where it must be ours, read where anyone's will do. Making
    /// one needs root (CI runs as root); without it the file is root's own /etc/passwd, read
    /// through a link.
    @Test func aFileOfAnotherUserIsRefusedWhereItMustBeOurs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/theirs"
        if getuid() == 0 {
            try Self.write("theirs", to: path)
            #expect(chown(path, 65534, 65534) == 0)
        } else {
            #expect(symlink("/etc/passwd", path) == 0)
        }
        #expect(throws: SmallFile.Failure.notOurs(owner: getuid() == 0 ? 65534 : 0)) {
            try SmallFile.read(path, limit: 1 << 20, links: .followed)
        }
        #expect(try !SmallFile.read(path, limit: 1 << 20, links: .followed, owner: .anyone).isEmpty)
    }

    /// From an open descriptor (the import's, passed by another process): from the start, with
    /// the descriptor's position and flags left as they were.
    @Test func anOpenDescriptorIsReadFromItsStartAndLeftAsItWas() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/ten"
        try Self.write("0123456789", to: path)
        let file = try FileDescriptor.open(path)
        defer { file.close() }
        #expect(lseek(file.rawValue, 4, SEEK_SET) == 4)
        let flags = fcntl(file.rawValue, F_GETFL)
        #expect(try SmallFile.read(file, limit: 10) == Array("0123456789".utf8))
        #expect(lseek(file.rawValue, 0, SEEK_CUR) == 4)
        #expect(fcntl(file.rawValue, F_GETFL) == flags)
        let pipe = try Pipe()
        defer { pipe.close() }
        #expect(throws: SmallFile.Failure.notRegular(kind: "a FIFO")) {
            try SmallFile.read(FileDescriptor(adopting: dup(pipe.read), path: "a pipe"), limit: 10)
        }
    }
}
