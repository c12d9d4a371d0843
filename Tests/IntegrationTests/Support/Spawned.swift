import Foundation

/// A process a test started: stdout and stderr go to files, and it is stopped by its PID only.
///
/// Spawned with `posix_spawn`, an empty signal mask and default dispositions: Foundation's `Process`
/// spawns from a thread that blocks most signals, and a child inheriting that mask ignores SIGTERM.
/// Waiting is async (polling `waitpid(WNOHANG)`), so a waiting test does not hold a pool thread.
final class Spawned: @unchecked Sendable {
    let pid: pid_t
    let executable: String
    let stdoutPath: String
    let stderrPath: String
    private let lock = NSLock()
    private var exitStatus: Int32?
    /// Held around every spawn and every pipe made close-on-exec, so no child inherits a pipe end.
    static let spawnLock = NSLock()

    /// Starts `executable` with `arguments` and exactly `environment`; output goes to files in `directory`.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String,
        label: String, stdin: Int32? = nil, stderr: Int32? = nil, closeStandardFDs: Bool = false
    ) throws {
        self.executable = executable
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
        let result = Self.spawnLock.withLock { posix_spawnp(&child, executable, &actions, &attributes, argv, envp) }
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
    var status: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return exitStatus
    }

    var isRunning: Bool { reap(blocking: false) == nil }

    /// Collects the exit status if the child has exited.
    @discardableResult
    func reap(blocking: Bool) -> Int32? {
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
    func waitExit(timeout: Duration = .seconds(10)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let code = reap(blocking: false) { return code }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return reap(blocking: false)
    }

    /// Sends `signal` to this PID (if it has not been reaped yet).
    func send(_ signal: Int32) {
        if reap(blocking: false) == nil { kill(pid, signal) }
    }

    /// SIGTERM, then SIGKILL if it is still running after `grace`; returns the exit status.
    @discardableResult
    func stop(grace: Duration = .seconds(10)) async -> Int32 {
        send(SIGTERM)
        if let code = await waitExit(timeout: grace) { return code }
        send(SIGKILL)
        return reap(blocking: true) ?? -1
    }

    /// Synchronous last-resort stop for cleanup paths (deinit, defer): SIGKILL and reap.
    func killNow() {
        if reap(blocking: false) == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
    }

    var output: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}

/// Kills every still-running child at process exit, so a crashed or failed test leaves no process.
final class Reaper: @unchecked Sendable {
    static let shared = Reaper()
    private let lock = NSLock()
    private var pids: Set<pid_t> = []

    private init() {
        atexit {
            for pid in Reaper.shared.snapshot() { kill(pid, SIGKILL) }
        }
    }

    func track(_ process: Spawned) {
        lock.lock()
        pids.insert(process.pid)
        lock.unlock()
    }

    func untrack(_ pid: pid_t) {
        lock.lock()
        pids.remove(pid)
        lock.unlock()
    }

    func snapshot() -> Set<pid_t> {
        lock.lock()
        defer { lock.unlock() }
        return pids
    }
}

/// The result of a command-line tool run to completion.
struct ToolResult: CustomStringConvertible {
    var status: Int32
    var output: String
    var errors: String

    var description: String { "exit \(status)\nstdout: \(output.prefix(2000))\nstderr: \(errors.prefix(2000))" }
}

/// A harness set-up step failed.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
