import CLinux
import Glibc

/// A non-blocking `signalfd` for the given signals, which it blocks for normal delivery.
///
/// Create it before starting any thread, so that the signals stay blocked everywhere.
public final class SignalFD {
    /// The descriptor to watch for readability.
    public let fd: Int32

    /// Blocks `signals` (e.g. `[SIGTERM, SIGINT]`) and opens a descriptor that reports them.
    public init(signals: [Int32]) throws(SystemCallError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        try SystemCall.run("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fd = try SystemCall.run("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit {
        close(fd)
    }

    /// The signals that arrived since the last read, in order.
    public func read() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        // Until the descriptor has nothing more (EAGAIN); the kernel hands out whole records only.
        while (try? SystemCall.read(fd, &info, size)) == size {
            signals.append(Int32(bitPattern: info.ssi_signo))
        }
        return signals
    }
}
