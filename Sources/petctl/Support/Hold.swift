import Glibc
import LinuxKit

/// `open --hold`: keeps the terminal window that a desktop launcher opened for a link (its
/// `Terminal=true`) until the user has read it; most terminals close when their command exits.
enum Hold {
    /// Waits for Enter (or end of input) when standard input is a terminal. Without one (a script,
    /// a test, /dev/null) nobody can press Enter, so it returns at once rather than hang.
    static func untilEnter() {
        guard TerminalDevice.isTerminal(0) else { return }
        print("\n" + tr("Press Enter to close."), terminator: "")
        fflush(nil)  // The prompt has no newline, so line buffering would keep it back.
        _ = readLine()
    }
}
