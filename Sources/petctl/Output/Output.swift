import Glibc
import LinuxKit

/// Where petctl writes: stdout for results, one line on stderr per error — each through
/// ``TerminalText/clean(_:)``. (Panel records go out through `writeAll`, already escaped for
/// their panel, with every control gone: `PanelLine.render`.)
enum Output {
    /// Writes `lines` to stdout, each ending in a newline.
    static func lines(_ lines: [String]) {
        for line in lines { print(TerminalText.clean(line)) }
    }

    /// Writes `text` to stdout, cleaned.
    static func text(_ text: String) { print(TerminalText.clean(text), terminator: "") }

    /// Writes all of `bytes` to `fd`, unbuffered, going on after a short write or EINTR; false on
    /// any other failure (`errno` says which: EPIPE when a pipe's reader went away).
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        do {
            try SystemCall.writeAll(fd, bytes)
            return true
        } catch {
            errno = error.errno
            return false
        }
    }

    /// `petctl: <sentence>` on stderr, unbuffered.
    static func error(_ sentence: String) {
        StandardDescriptors.writeError("petctl: \(TerminalText.clean(sentence))\n")
    }
}
