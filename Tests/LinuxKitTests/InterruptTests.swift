import Glibc
import LinuxKit
import Synchronization
import Testing

/// How many SIGUSR1s the handler has seen (a global: a signal handler captures nothing).
private let interruptions = Atomic<Int>(0)

/// `EINTR` for real: a thread blocked in `read` on an empty pipe, SIGUSR1 sent to that thread
/// with a handler installed without `SA_RESTART`, so the kernel returns from the call.
@Suite("EINTR", .serialized)
struct InterruptTests {
    @Test func aSignalInterruptsARawRead() throws {
        try withInterruptibleReads { pipe in
            let reader = try BlockedReader(pipe.read, raw: true)
            try reader.waitUntilBlocked()
            try reader.interrupt()
            let result = reader.join()
            #expect(result.count == -1)
            #expect(result.errno == EINTR)
        }
    }

    @Test func theFunnelRetriesAnInterruptedRead() throws {
        try withInterruptibleReads { pipe in
            let reader = try BlockedReader(pipe.read, raw: false)
            // Each round: the reader is asleep in read(2), a signal interrupts it, and the funnel
            // goes back to sleep in read(2) rather than returning.
            for _ in 0..<3 {
                try reader.waitUntilBlocked()
                try reader.interrupt()
            }
            try reader.waitUntilBlocked()
            #expect(write(pipe.write, "z", 1) == 1)
            let result = reader.join()
            #expect(result.count == 1)
            #expect(result.byte == UInt8(ascii: "z"))
        }
    }

    @Test func aFileDescriptorReadsToTheEndThroughInterruptions() throws {
        try withInterruptibleReads { _ in
            // A pipe of its own, so that closing its write end (the end of the file) is this test's.
            var fds: [Int32] = [-1, -1]
            try SystemCall.run("pipe") { pipe(&fds) }
            let (end, writeEnd) = (fds[0], fds[1])
            let reader = try BlockedReader(end, raw: false) {
                let file = FileDescriptor(adopting: end, path: "the pipe")
                do throws(SystemCallError) {
                    let bytes = try file.readAll(limit: 16)
                    return BlockedReader.Result(count: bytes.count, errno: 0, byte: bytes.first ?? 0)
                } catch {
                    return BlockedReader.Result(count: -1, errno: error.errno, byte: 0)
                }
            }
            for _ in 0..<3 {
                try reader.waitUntilBlocked()
                try reader.interrupt()
            }
            try reader.waitUntilBlocked()
            #expect(write(writeEnd, "zz", 2) == 2)
            #expect(close(writeEnd) == 0)
            let result = reader.join()
            #expect(result.count == 2 && result.errno == 0)
            #expect(result.byte == UInt8(ascii: "z"))
        }
    }

    @Test func writeAllGoesOnAfterAnInterruptedPartialWrite() throws {
        try withInterruptibleReads { pipe in
            // Four times a pipe's 64 KiB: the write fills the pipe and sleeps; a signal then makes
            // it return the part it wrote, and writeAll must write the rest.
            let payload = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let end = try SystemCall.run("dup") { dup(pipe.write) }
            let writer = try BlockedReader(end, raw: false) {
                let file = FileDescriptor(adopting: end, path: "the pipe")
                do throws(SystemCallError) {
                    try file.writeAll(payload)
                    return BlockedReader.Result(count: payload.count, errno: 0, byte: 0)
                } catch {
                    return BlockedReader.Result(count: -1, errno: error.errno, byte: 0)
                }
            }
            // The first interruption returns the part written (the pipe is full); the next ones
            // find the retried write asleep with nothing written yet, so it returns EINTR.
            for _ in 0..<3 {
                try writer.waitUntilBlocked()
                try writer.interrupt()
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while received.count < payload.count {
                let n = try SystemCall.read(pipe.read, into: &buffer)
                received += buffer[..<n]
            }
            let result = writer.join()
            #expect(result.count == payload.count && result.errno == 0)
            #expect(received == payload)
        }
    }

    /// Runs `body` with a SIGUSR1 handler that does not restart calls, and a blocking pipe.
    private func withInterruptibleReads(_ body: (Pipe) throws -> Void) throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the interrupted call returns EINTR
        var previous = sigaction()
        try SystemCall.run("sigaction") { sigaction(SIGUSR1, &action, &previous) }
        defer { sigaction(SIGUSR1, &previous, nil) }
        let pipe = try Pipe()
        defer { pipe.close() }
        try body(pipe)
    }
}

/// A thread that makes one blocking one-byte `read` on `fd`, raw or through the funnel.
final class BlockedReader: @unchecked Sendable {
    struct Result {
        var count: Int
        var errno: Int32
        var byte: UInt8
    }

    let fd: Int32
    let raw: Bool
    /// Run instead of the one-byte read, when given.
    private let body: (@Sendable () -> Result)?
    private let threadID = Atomic<Int32>(0)
    private var thread = pthread_t()
    private var result = Result(count: 0, errno: 0, byte: 0)

    init(_ fd: Int32, raw: Bool, body: (@Sendable () -> Result)? = nil) throws {
        self.fd = fd
        self.raw = raw
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { context in
                let reader = Unmanaged<BlockedReader>.fromOpaque(context!).takeRetainedValue()
                reader.run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<BlockedReader>.fromOpaque(context).release()
            throw SystemCallError(call: "pthread_create", errno: created)
        }
    }

    private func run() {
        // A new thread inherits its creator's mask, and the test runner's threads may block signals.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        threadID.store(Self.currentThreadID(), ordering: .releasing)
        var byte: UInt8 = 0
        if let body {
            result = body()
        } else if raw {
            let count = Glibc.read(fd, &byte, 1)
            result = Result(count: count, errno: count < 0 ? errno : 0, byte: byte)
        } else {
            do {
                result = Result(count: try SystemCall.read(fd, &byte, 1), errno: 0, byte: byte)
            } catch {
                result = Result(count: -1, errno: error.errno, byte: 0)
            }
        }
    }

    /// Waits until the thread sleeps in the kernel (`S` in `/proc/self/task/<tid>/stat`): in its
    /// `read` (or `write`), the only place it can sleep.
    func waitUntilBlocked() throws {
        for _ in 0..<5000 {
            let tid = threadID.load(ordering: .acquiring)
            if tid != 0, Self.state(of: tid) == "S" { return }
            usleep(1000)
        }
        throw SystemCallError(call: "waiting for the reader to block", errno: ETIMEDOUT)
    }

    /// Sends SIGUSR1 to the thread and waits until the handler ran.
    func interrupt() throws {
        let before = interruptions.load(ordering: .relaxed)
        let sent = pthread_kill(thread, SIGUSR1)
        guard sent == 0 else { throw SystemCallError(call: "pthread_kill", errno: sent) }
        for _ in 0..<5000 {
            if interruptions.load(ordering: .relaxed) != before { return }
            usleep(1000)
        }
        throw SystemCallError(call: "waiting for the SIGUSR1 handler", errno: ETIMEDOUT)
    }

    /// Waits for the thread; what its read returned.
    func join() -> Result {
        pthread_join(thread, nil)
        return result
    }

    /// The kernel's id of the calling thread: `/proc/thread-self` links to `<pid>/task/<tid>`
    /// (Glibc's module does not export `gettid`).
    private static func currentThreadID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return 0 }
        let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { Int32($0) } ?? 0
    }

    /// The state letter of thread `tid` of this process.
    private static func state(of tid: Int32) -> Character? {
        let fd = open("/proc/self/task/\(tid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = (try? SystemCall.read(fd, &buffer, buffer.count)) ?? 0
        // "tid (comm) S ...": the comm may hold spaces and parentheses, so look after the last ')'.
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[close...].dropFirst(2).first
    }
}
