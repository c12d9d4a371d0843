import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process with its stdout on a pipe, started with posix_spawn and stopped by its pid.
final class ChildProcess {
    let pid: pid_t
    private let out: Int32
    private var pending: [UInt8] = []
    private(set) var lines: [String] = []
    private var eof = false

    init(_ path: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        throws
    {
        var fds: [Int32] = [0, 0]
        // pipe2 is not imported; close-on-exec at once, so no other child inherits the write end.
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)  // dup2 clears O_CLOEXEC on fd 1
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, argv, envp)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .ENOENT)
        }
        pid = child
        out = fds[0]
    }

    deinit { close(out) }

    /// Waits up to `timeout` seconds for a line that satisfies `match`; returns it, or nil on
    /// timeout or end of output.
    func waitForLine(timeout: Double, where match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = 0
        while true {
            while seen < lines.count {
                if match(lines[seen]) { return lines[seen] }
                seen += 1
            }
            let left = deadline.timeIntervalSinceNow
            if eof || left <= 0 { return nil }
            var p = pollfd(fd: out, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(left * 1000) + 1) > 0 { readSome() }
        }
    }

    /// SIGKILL, then collect the exit status and every line written before death.
    @discardableResult
    func killAndWait() -> Int32 {
        kill(pid, SIGKILL)
        return waitForExit()
    }

    /// Reads to end of output and reaps the child; returns the raw wait status.
    func waitForExit() -> Int32 {
        while !eof { readSome() }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    private func readSome() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { read(out, $0.baseAddress, 65536) }
        if n <= 0 {
            if n == 0 || errno != EINTR { eof = true }
            return
        }
        pending += chunk[0..<n]
        while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<nl], as: UTF8.self))
            pending.removeSubrange(...nl)
        }
    }
}

/// Whether a wait status says the child died of SIGKILL.
func killedBySIGKILL(_ status: Int32) -> Bool { (status & 0x7f) == SIGKILL }

/// The exit code of a wait status, or nil if a signal ended it.
func exitCode(_ status: Int32) -> Int32? { (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil }
