import CDBus
import Glibc

/// A non-blocking `signalfd` for the given signals, which it blocks for normal delivery.
///
/// Lives in DBusKit only because Swift's Glibc module does not export `<sys/signalfd.h>`. Create it
/// before starting any thread, so that the signals stay blocked everywhere.
public final class SignalFD {
    /// The descriptor to watch for readability.
    public let fd: Int32

    /// Blocks `signals` (e.g. `[SIGTERM, SIGINT]`) and opens a descriptor that reports them.
    public init(signals: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        _ = try SystemCallError.check(sigprocmask(SIG_BLOCK, &mask, nil), "sigprocmask")
        fd = try SystemCallError.check(
            signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)), "signalfd")
    }

    deinit {
        close(fd)
    }

    /// The signals that arrived since the last read, in order.
    public func read() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while Glibc.read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(bitPattern: info.ssi_signo))
        }
        return signals
    }
}
