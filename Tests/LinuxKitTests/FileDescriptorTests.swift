import Glibc
import LinuxKit
import Testing

/// The file descriptor and the atomic replace: typed errors naming the call and the path, the
/// read limit, and what a replace leaves behind.
@Suite("Files")
struct FileDescriptorTests {
    @Test func errorsNameTheCallAndThePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.path + "/missing"
        #expect(throws: SystemCallError(call: "open", subject: missing, errno: ENOENT)) {
            try FileDescriptor.open(missing)
        }
        do {
            _ = try FileDescriptor.open(missing)
        } catch {
            #expect(error.description == "open \(missing): No such file or directory")
        }
        let folder = try FileDescriptor.open(directory.path, .directory)
        #expect(throws: SystemCallError(call: "read", subject: directory.path, errno: EISDIR)) {
            try folder.readAll(limit: 10)
        }
        #expect(throws: SystemCallError(call: "rename", subject: missing, errno: ENOENT)) {
            try FileSystem.rename(missing, to: missing + "2")
        }
    }

    @Test func readAllStopsAtTheLimit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/ten"
        let file = try FileDescriptor.open(path, [.writeOnly, .create])
        try file.writeAll(Array("0123456789".utf8))
        file.close()
        #expect(try FileDescriptor.open(path).readAll(limit: 10) == Array("0123456789".utf8))
        #expect(throws: SystemCallError(call: "read", subject: path, errno: EFBIG)) {
            try FileDescriptor.open(path).readAll(limit: 9)
        }
        // An endless file is refused, not read into memory.
        #expect(throws: SystemCallError(call: "read", subject: "/dev/zero", errno: EFBIG)) {
            try FileDescriptor.open("/dev/zero").readAll(limit: 1 << 20)
        }
        #expect(try FileDescriptor.open("/dev/null").readAll(limit: 0) == [])
    }

    @Test func createdFilesAre0600AndOpenRelativeToADirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try FileDescriptor.open(directory.path, .directory)
        let file = try FileDescriptor.open("made", [.writeOnly, .create, .exclusive], relativeTo: folder)
        #expect(file.path == directory.path + "/made")
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(throws: SystemCallError(call: "open", subject: file.path, errno: EEXIST)) {
            try FileDescriptor.open("made", [.writeOnly, .create, .exclusive], relativeTo: folder)
        }
        file.close()
        file.close()  // a second close does nothing
        #expect(file.rawValue == -1)
    }

    @Test func atomicReplaceLeavesTheNewFileAndNoTemporary() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/state.json"
        try AtomicReplace.write(Array("old".utf8), to: "state.json", in: directory.path, through: .named(".tmp"))
        try AtomicReplace.write(Array("new".utf8), to: "state.json", in: directory.path, through: .named(".tmp"))
        #expect(try FileDescriptor.open(path).readAll(limit: 100) == Array("new".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(names(in: directory.path) == ["state.json"])

        // Not replacing: link refuses, the file and the directory stay as they were.
        #expect(
            throws: AtomicReplaceError(
                failure: SystemCallError(call: "link", subject: path, errno: EEXIST), replaced: false)
        ) {
            try AtomicReplace.write(
                Array("other".utf8), to: "state.json", in: directory.path, through: .unique, replacing: false)
        }
        #expect(try FileDescriptor.open(path).readAll(limit: 100) == Array("new".utf8))
        #expect(names(in: directory.path) == ["state.json"])
        try AtomicReplace.write(Array("x".utf8), to: "other", in: directory.path, through: .unique, replacing: false)
        #expect(names(in: directory.path) == ["other", "state.json"])

        // A failure before the rename: nothing replaced, no temporary left.
        let missing = directory.path + "/missing"
        #expect(
            throws: AtomicReplaceError(
                failure: SystemCallError(call: "open", subject: missing, errno: ENOENT), replaced: false)
        ) {
            try AtomicReplace.write([], to: "state.json", in: missing, through: .named(".tmp"))
        }
    }

    private func names(in directory: String) -> [String] {
        var names: [String] = []
        try? FileSystem.forEachName(in: directory) { names.append(String(decoding: $0, as: UTF8.self)) }
        return names.filter { $0 != "." && $0 != ".." }.sorted()
    }
}
