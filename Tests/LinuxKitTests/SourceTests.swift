import Glibc
import LinuxKit
import Testing

/// The timer and signal sources, read through the funnel, and the loop that serves them.
@Suite("Sources and the loop")
struct SourceTests {
    @Test func timerFiresOnceThenHasNothing() throws {
        let timer = try TimerFD(clock: .monotonic)
        try timer.arm(after: .milliseconds(1))
        #expect(waitReadable(timer.fd))
        #expect(timer.read() == .expired(1))
        #expect(timer.read() == .notYet)
    }

    @Test func loopRunsATimerHandlerAndStops() throws {
        let loop = EventLoop()
        let timer = try TimerFD(clock: .monotonic)
        try timer.arm(after: .milliseconds(5), interval: .milliseconds(5))
        var fired = 0
        loop.addFD(timer.fd) { _ in
            if case .expired = timer.read() { fired += 1 }
            if fired == 3 { loop.stop() }
        }
        #expect(loop.run() == .stopped)
        #expect(fired == 3)
    }

    /// A source made of a real pipe: its descriptor served, the loop asleep until its deadline,
    /// and its end (the writer closed at the deadline) ending the loop as a lost bus would.
    @Test func loopServesASourceUntilItEnds() throws {
        let pipe = try Pipe()
        let start = MonotonicClock.milliseconds()
        let source = PipeSource(pipe.read, deadline: start + 20) { close(pipe.write) }
        let loop = EventLoop()
        loop.add(source)
        loop.add(source)  // twice is once
        #expect(loop.sources.count == 1)
        #expect(write(pipe.write, "ab", 2) == 2)
        #expect(loop.run() == .disconnected)
        #expect(MonotonicClock.milliseconds() - start >= 20)
        #expect(source.received == [UInt8(ascii: "a"), UInt8(ascii: "b")])
        #expect(source.deadlinesFired == 1)
        loop.remove(source)
        #expect(source.detached)
        close(pipe.read)
    }

    private func waitReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 5000) == 1
    }
}

/// An ``EventSource`` over one pipe: reads what arrives, has one deadline, ends at end of file.
final class PipeSource: EventSource {
    let fd: Int32
    private var deadline: Int64?
    private let onDeadline: () -> Void
    private(set) var received: [UInt8] = []
    private(set) var deadlinesFired = 0
    private(set) var detached = false
    private var ended = false

    init(_ fd: Int32, deadline: Int64, onDeadline: @escaping () -> Void) {
        self.fd = fd
        self.deadline = deadline
        self.onDeadline = onDeadline
    }

    func dispatch() -> Bool { !ended }
    var hasPendingWork: Bool { false }

    func appendDescriptors(to descriptors: inout [EventLoop.Descriptor]) {
        descriptors.append(EventLoop.Descriptor(fd: fd, events: .readable))
    }

    func handle(_ index: Int, _ events: EventLoop.Events) {
        var byte: UInt8 = 0
        let count = (try? SystemCall.read(fd, &byte, 1)) ?? 0
        if count == 1 { received.append(byte) } else { ended = true }
    }

    var nextDeadline: Int64? { deadline }

    func fireDeadlines(now: Int64) {
        guard let deadline, deadline <= now else { return }
        self.deadline = nil
        deadlinesFired += 1
        onDeadline()
    }

    func detach() { detached = true }
}
