import Glibc
import LinuxKit

/// Where petctl writes: stdout for results, one line on stderr per error.
enum Output {
    /// Writes `lines` to stdout, each ending in a newline.
    static func lines(_ lines: [String]) {
        for line in lines { print(line) }
    }

    /// Writes `text` to stdout as it is.
    static func text(_ text: String) { print(text, terminator: "") }

    /// Writes all of `bytes` to `fd`, unbuffered, going on after a short write or EINTR; false on
    /// any other failure (`errno` says which: EPIPE when a pipe's reader went away).
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            do {
                let n = try SystemCall.write(fd, bytes, from: offset)
                guard n > 0 else { return false }
                offset += n
            } catch {
                errno = error.errno
                return false
            }
        }
        return true
    }

    /// `petctl: <sentence>` on stderr, unbuffered.
    static func error(_ sentence: String) {
        let text = "petctl: \(sentence)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
