import Glibc
import LinuxKit
import Testing

/// The funnel's typed errors and `attempt`.
@Suite("System calls")
struct SystemCallTests {
    @Test func badDescriptorIsATypedError() {
        var byte: UInt8 = 0
        #expect(throws: SystemCallError(call: "read", errno: EBADF)) { try SystemCall.read(-1, &byte, 1) }
        do {
            try SystemCall.run("fsync", subject: "the journal") { fsync(-1) }
            Issue.record("fsync(-1) succeeded")
        } catch {
            #expect(error.errno == EBADF)
            #expect(error.description == "fsync the journal: Bad file descriptor")
            #expect(!error.wouldBlock)
        }
    }

    @Test func emptyNonBlockingPipeWouldBlock() throws {
        let pipe = try Pipe(nonBlocking: true)
        defer { pipe.close() }
        var byte: UInt8 = 0
        do {
            _ = try SystemCall.read(pipe.read, &byte, 1)
            Issue.record("read an empty pipe")
        } catch {
            #expect(error.wouldBlock)
        }
        #expect(try SystemCall.run("write") { write(pipe.write, "x", 1) } == 1)
        #expect(try SystemCall.read(pipe.read, &byte, 1) == 1)
        #expect(byte == UInt8(ascii: "x"))
    }

    @Test func attemptReturnsErrnoOrZero() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(SystemCall.attempt { unlink(directory.path + "/missing") } == ENOENT)
        #expect(SystemCall.attempt { mkdir(directory.path + "/made", 0o700) } == 0)
        #expect(SystemCall.attempt { mkdir(directory.path + "/made", 0o700) } == EEXIST)
        #expect(SystemCall.attempt { rmdir(directory.path + "/made") } == 0)
    }
}
