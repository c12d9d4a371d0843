import Glibc

/// Descriptors 0, 1 and 2: stdin, stdout and stderr.
public enum StandardDescriptors {
    /// Whether `fd` is open.
    public static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

    /// Opens /dev/null on each of 0–2 that is closed. Started with them closed, the next files
    /// opened (a lock, a state file, a bus socket) would take those numbers, and a line written to
    /// stderr would land in them.
    public static func openMissing() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // open(2) returns the lowest free number: this one, as the lower ones are open by now.
            let opened = open("/dev/null", O_RDWR)
            if opened > 2 { close(opened) }
        }
    }

    /// Writes `text` to stderr in one unbuffered `write` (no shared `stderr` FILE* for Swift 6 to
    /// object to); a failure is ignored, as there is nowhere left to report it.
    public static func writeError(_ text: String) {
        _ = try? SystemCall.write(2, Array(text.utf8))
    }
}
