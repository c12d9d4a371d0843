import Glibc
import LinuxKit
import Testing

/// LinuxKit's private copy (`MappedFile.privateCopy`), which the daemon's import reads: the source
/// copied in the kernel into an unnamed file of a directory, then mapped; the source's owner may
/// truncate it afterwards and every byte of the mapping still reads (a mapping of the source
/// itself would fault, `SIGBUS`, past its new end). The copy has no name, is the process's own
/// (0600), leaves the source's offset as it was, keeps the bound and the room asked for.
@Suite("Private copies")
struct PrivateCopyTests {
    /// `count` bytes of a repeating pattern, different on every page.
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) } }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
        try file.writeAll(bytes)
        file.close()
    }

    /// The names in `path` but `.` and `..`.
    static func names(_ path: String) throws -> [String] {
        var names: [String] = []
        try FileSystem.forEachName(in: path) { name in
            let text = String(decoding: name, as: UTF8.self)
            if text != ".", text != ".." { names.append(text) }
        }
        return names.sorted()
    }

    @Test func theCopyOutlivesTheSourceTruncated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Self.pattern(3 << 20 + 123)
        try Self.write(bytes, to: directory.path + "/source")
        let source = try FileDescriptor.open(directory.path + "/source")
        defer { source.close() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        defer { folder.close() }
        let mapped = try MappedFile.privateCopy(of: source, in: folder, limit: 4 << 20)
        // Cut to half, then to nothing: a mapping of the source would fault on its second half.
        try #require(truncate(directory.path + "/source", off_t(bytes.count / 2)) == 0)
        try #require(truncate(directory.path + "/source", 0) == 0)
        #expect(mapped.bytes.count == bytes.count)
        #expect(Array(mapped.bytes) == bytes)
        // Unnamed: the directory holds the source alone.
        #expect(try Self.names(directory.path) == ["source"])
    }

    @Test func theSourceOffsetIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(Self.pattern(100_000), to: directory.path + "/source")
        let source = try FileDescriptor.open(directory.path + "/source")
        defer { source.close() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        defer { folder.close() }
        #expect(lseek(source.rawValue, 5, SEEK_SET) == 5)
        let mapped = try MappedFile.privateCopy(of: source, in: folder, limit: 1 << 20)
        #expect(Array(mapped.bytes) == Self.pattern(100_000))
        #expect(lseek(source.rawValue, 0, SEEK_CUR) == 5)
    }

    @Test func anUnnamedFileIsOursAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        defer { folder.close() }
        let copy = try FileDescriptor.unnamed(in: folder)
        try copy.writeAll(Array("x".utf8))
        let status = try copy.status()
        #expect(status.isRegularFile)
        #expect(status.permissions & 0o777 == 0o600)
        #expect(status.owner == geteuid())
        #expect(try Self.names(directory.path) == [])
        copy.close()
        #expect(try Self.names(directory.path) == [])
    }

    /// Where the file system has no `O_TMPFILE` (NFS, CIFS, FUSE): a named file, unlinked at once.
    /// This machine's file systems all have `O_TMPFILE`; the fallback is called directly.
    @Test func withoutOTmpfileANamedFileUnlinkedAtOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        defer { folder.close() }
        let copy = try FileDescriptor.unlinkedNamed(in: folder)
        #expect(try Self.names(directory.path) == [])
        try copy.writeAll(Array("kept while open".utf8))
        #expect(try copy.read(at: 0, count: 100) == Array("kept while open".utf8))
        let status = try copy.status()
        #expect(status.isRegularFile)
        #expect(status.permissions & 0o777 == 0o600)
        #expect(status.owner == geteuid())
        copy.close()
        #expect(try Self.names(directory.path) == [])
    }

    @Test func copiedInChunksToTheEndOrTheLimit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Self.pattern(100_003)
        try Self.write(bytes, to: directory.path + "/source")
        let source = try FileDescriptor.open(directory.path + "/source")
        defer { source.close() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        defer { folder.close() }
        let whole = try FileDescriptor.unnamed(in: folder)
        #expect(try whole.append(contentsOf: source, limit: 1 << 20, chunk: 4096) == 100_003)
        #expect(try whole.read(at: 0, count: 200_000) == bytes)
        let part = try FileDescriptor.unnamed(in: folder)
        #expect(try part.append(contentsOf: source, limit: 10_000, chunk: 4096) == 10_000)
        #expect(try part.read(at: 0, count: 200_000) == Array(bytes.prefix(10_000)))
        try Self.write([], to: directory.path + "/empty")
        let empty = try FileDescriptor.open(directory.path + "/empty")
        #expect(try FileDescriptor.unnamed(in: folder).append(contentsOf: empty, limit: 10) == 0)
        let mapped = try MappedFile.privateCopy(of: empty, in: folder, limit: 10)
        #expect(mapped.bytes.isEmpty)
    }

    /// From another file system (tmpfs under /dev/shm, when there is one) into /tmp's: where
    /// `copy_file_range` may refuse (`EXDEV`), `sendfile` copies.
    @Test func acrossFileSystems() throws {
        let shm = FileSystem.exists("/dev/shm") ? "/dev/shm/linuxkit-copy-\(getpid())" : nil
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = shm ?? directory.path + "/source"
        defer { if shm != nil { unlink(path) } }
        let bytes = Self.pattern(1 << 20 + 1)
        try Self.write(bytes, to: path)
        let source = try FileDescriptor.open(path)
        defer { source.close() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        defer { folder.close() }
        let mapped = try MappedFile.privateCopy(of: source, in: folder, limit: 2 << 20)
        #expect(Array(mapped.bytes) == bytes)
    }

    @Test func refusedAsSmallFileRefusesAndWithoutRoom() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(Self.pattern(10), to: directory.path + "/ten")
        let ten = try FileDescriptor.open(directory.path + "/ten")
        defer { ten.close() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        defer { folder.close() }
        #expect(throws: MappedFile.CopyFailure.source(.tooLarge(size: 10, limit: 9))) {
            try MappedFile.privateCopy(of: ten, in: folder, limit: 9)
        }
        #expect(throws: MappedFile.CopyFailure.source(.notRegular(kind: "a directory"))) {
            try MappedFile.privateCopy(of: folder, in: folder, limit: 9)
        }
        #expect(try folder.availableBytes() > 0)
        // More room kept free than any disk has (what is free changes meanwhile: others write).
        do throws(MappedFile.CopyFailure) {
            _ = try MappedFile.privateCopy(of: ten, in: folder, limit: 10, keepFree: 1 << 60)
            Issue.record("copied without room")
        } catch {
            guard case .noRoom(let needed, let available) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(needed == 10 + 1 << 60)
            #expect(available < needed)
        }
        #expect(try Self.names(directory.path) == ["ten"])
    }
}
