import Foundation

/// A process a test started: stdout and stderr go to files, and it is stopped by its PID only.
///
/// The one place the tests call `posix_spawn`. An empty signal mask and default dispositions:
/// Foundation's `Process` spawns from a thread that blocks most signals, and a child inheriting
/// that mask ignores SIGTERM. Waiting is async (polling `waitpid(WNOHANG)`), so a waiting test does
/// not hold a pool thread; synchronous suites use the blocking twins.
public final class Spawned: @unchecked Sendable {
    public let pid: pid_t
    public let executable: String
    public let arguments: [String]
    public let stdoutPath: String
    public let stderrPath: String
    private let lock = NSLock()
    private var exitStatus: Int32?
    /// Bytes of stdout already handed out by `nextLine()`.
    private var linesRead: UInt64 = 0
    /// Held around every spawn and every pipe made close-on-exec, so no child inherits a pipe end.
    public static let spawnLock = NSLock()

    /// Starts `executable` (looked up in `PATH` if it has no slash) with `arguments` and exactly
    /// `environment`; output goes to files in `directory`. `stdin`/`stderr` wire a descriptor of
    /// this process in; `closeStandardFDs` starts it with 0, 1 and 2 closed.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String,
        label: String, stdin: Int32? = nil, stderr: Int32? = nil, closeStandardFDs: Bool = false
    ) throws {
        self.executable = executable
        self.arguments = arguments
        let stamp = "\(label)-\(UUID().uuidString.prefix(8))"
        stdoutPath = "\(directory)/\(stamp).out"
        stderrPath = "\(directory)/\(stamp).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Standard descriptors: /dev/null in, files out, unless the caller wires them or closes them.
        if closeStandardFDs {
            for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addclose(&actions, fd) }
        } else {
            if let stdin {
                posix_spawn_file_actions_adddup2(&actions, stdin, 0)
            } else {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            if let stderr {
                posix_spawn_file_actions_adddup2(&actions, stderr, 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so a terminal's ^C or a stray group signal never reaches it.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var child: pid_t = 0
        var result = Self.spawnLock.withLock { posix_spawnp(&child, executable, &actions, &attributes, argv, envp) }
        // A binary a test has just copied (HostileCatalogueTests' petctl) can be "busy" for a moment:
        // a process another test forked meanwhile holds the copy's write descriptor until it execs.
        var tries = 0
        while result == ETXTBSY, tries < 100 {
            tries += 1
            usleep(20_000)
            result = Self.spawnLock.withLock { posix_spawnp(&child, executable, &actions, &attributes, argv, envp) }
        }
        guard result == 0 else {
            throw HarnessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        Reaper.shared.track(self)
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
        Reaper.shared.untrack(pid)
    }

    /// The exit status once it has exited (128 + signal when killed), else nil. Never blocks.
    public var status: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return exitStatus
    }

    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Collects the exit status if the child has exited.
    @discardableResult
    public func reap(blocking: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        var got: pid_t
        repeat { got = waitpid(pid, &raw, blocking ? 0 : WNOHANG) } while got == -1 && errno == EINTR
        guard got == pid else { return nil }
        let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        exitStatus = code
        Reaper.shared.untrack(pid)
        return code
    }

    /// Waits up to `timeout` for the exit; the status, or nil if it is still running.
    public func waitExit(timeout: Duration = .seconds(10)) async -> Int32? {
        _ = await poll(timeout: timeout) { self.reap(blocking: false) != nil }
        return reap(blocking: false)
    }

    /// `waitExit`, blocking the calling thread (for synchronous suites and `offPool`).
    public func waitExitBlocking(timeout: Duration = .seconds(10)) -> Int32? {
        _ = pollBlocking(timeout: timeout) { self.reap(blocking: false) != nil }
        return reap(blocking: false)
    }

    /// Sends `signal` to this PID (if it has not been reaped yet).
    public func send(_ signal: Int32) {
        if reap(blocking: false) == nil { kill(pid, signal) }
    }

    /// SIGTERM, then SIGKILL if it is still running after `grace`; returns the exit status.
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) async -> Int32 {
        send(SIGTERM)
        if let code = await waitExit(timeout: grace) { return code }
        send(SIGKILL)
        return reap(blocking: true) ?? -1
    }

    /// Synchronous stop for cleanup paths (deinit, defer) and kill tests: SIGKILL and reap; the
    /// exit status (128 + SIGKILL unless it had already exited).
    @discardableResult
    public func killNow() -> Int32 {
        if reap(blocking: false) == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
        return status ?? -1
    }

    public var output: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var errors: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The complete lines of stdout so far (a line still being written is left out).
    public var lines: [String] {
        let text = output
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The next complete line of stdout that no earlier call returned, or nil if none has been
    /// written yet. Never blocks.
    public func nextLine() -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard let file = FileHandle(forReadingAtPath: stdoutPath) else { return nil }
        defer { try? file.close() }
        try? file.seek(toOffset: linesRead)
        guard let rest = try? file.readToEnd(), let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
            return nil
        }
        linesRead += UInt64(newline - rest.startIndex + 1)
        return String(decoding: rest[rest.startIndex..<newline], as: UTF8.self)
    }

    /// Waits (blocking, polling every 5 ms) for a new line of stdout that satisfies `match`,
    /// passing over the others; that line, or nil once it exited without one or `timeout` passed.
    public func waitForLine(timeout: Duration = .seconds(30), where match: (String) -> Bool = { _ in true })
        -> String?
    {
        var found: String?
        _ = pollBlocking(timeout: timeout, every: .milliseconds(5)) {
            // Checked before reading, so the lines written just before the exit are still read.
            let exited = !isRunning
            while let line = nextLine() {
                if match(line) {
                    found = line
                    return true
                }
            }
            return exited
        }
        return found
    }
}
