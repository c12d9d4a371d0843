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
    private let threadID = Atomic<Int32>(0)
    private var thread = pthread_t()
    private var result = Result(count: 0, errno: 0, byte: 0)

    init(_ fd: Int32, raw: Bool) throws {
        self.fd = fd
        self.raw = raw
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
        if raw {
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

    /// Waits until the thread sleeps in the kernel (`S` in `/proc/self/task/<tid>/stat`): in `read`,
    /// the only place it can sleep.
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
