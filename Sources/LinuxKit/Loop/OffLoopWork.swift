import CLinux
import Glibc

/// One piece of pure work run on a thread of its own while the loop goes on serving, its result
/// handed back on the loop (the daemon's import parse: seconds of CPU for a large document, during
/// which other callers are still answered; petprogress(7) §5).
///
/// The work must touch nothing the loop owns: it gets its input by value and returns a value.
/// Its end is announced through an eventfd the loop watches; the thread is joined there before
/// `done` runs, so everything the work wrote is visible to the loop (the join orders it).
public enum OffLoopWork {
    /// Why the work could not be started (no thread or no eventfd): the caller may run it in place.
    public struct Unavailable: Error, Sendable {
        public let reason: String
    }

    /// Runs `work` on a new thread; `done` runs on `loop` with its result. Throws when no thread or
    /// eventfd can be had, and then nothing runs.
    public static func start<Result: Sendable>(
        on loop: EventLoop, _ work: @escaping @Sendable () -> Result, done: @escaping (Result) -> Void
    ) throws(Unavailable) {
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fd >= 0 else { throw Unavailable(reason: "eventfd: \(String(cString: strerror(errno)))") }
        let box = Box<Result>()
        let job = Job(fd: fd) { box.value = work() }
        let context = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            close(fd)
            throw Unavailable(reason: "pthread_create: \(String(cString: strerror(started)))")
        }
        var token: EventLoop.FDToken?
        token = loop.addFD(fd) { _ in
            var count: UInt64 = 0
            guard read(fd, &count, 8) == 8 else { return }  // spurious: wait for the real one
            if let token { loop.removeFD(token) }
            pthread_join(thread, nil)
            close(fd)
            guard let result = box.value else { return }
            done(result)
        }
    }

    /// The work's result: written by the worker before it signals, read on the loop after the join.
    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
    }

    /// The work and the descriptor that announces its end.
    private final class Job: @unchecked Sendable {
        let fd: Int32
        let body: @Sendable () -> Void

        init(fd: Int32, body: @escaping @Sendable () -> Void) {
            self.fd = fd
            self.body = body
        }

        func run() {
            body()
            var one: UInt64 = 1
            _ = SystemCall.attempt { write(fd, &one, 8) }
        }
    }
}
