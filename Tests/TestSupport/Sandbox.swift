import Foundation

/// One test's private world: a fresh temporary directory, and every process started in it.
/// `close()` (call it in a `defer`) stops them all by PID and removes the directory.
public final class Sandbox: @unchecked Sendable {
    public let root: String
    private let lock = NSLock()
    private var children: [Spawned] = []
    private var watchdogs: [(process: Spawned, pipe: Int32)] = []

    public init(_ label: String) throws {
        // Short paths: a unix socket path must fit in 108 bytes.
        var template = Array("/tmp/ppit-\(label.prefix(12))-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        root = String(cString: made)
    }

    /// A path inside the sandbox.
    public func path(_ name: String) -> String { "\(root)/\(name)" }

    /// Starts a process whose output lands in the sandbox; it is stopped by `close()`.
    public func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], label: String,
        stderr: Int32? = nil, closeStandardFDs: Bool = false
    ) throws -> Spawned {
        let child = try Spawned(
            executable, arguments, environment: environment, directory: root, label: label, stderr: stderr,
            closeStandardFDs: closeStandardFDs)
        lock.lock()
        children.append(child)
        lock.unlock()
        return child
    }

    /// Makes sure `victim` dies even if this test process does not get to `close()` (a crash
    /// elsewhere in the test bundle, a runner timeout): a tiny `sh` reads a pipe whose only write
    /// end this process holds, and SIGKILLs `victim` by PID at end of file. Killing the bus is
    /// enough: the daemon, monitors and activated services exit when it goes.
    public func guardProcess(_ victim: Spawned) throws {
        var ends: [Int32] = [0, 0]
        // Close-on-exec before any other spawn can inherit the write end (Glibc has no pipe2 here).
        let made = Spawned.spawnLock.withLock { () -> Bool in
            guard pipe(&ends) == 0 else { return false }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard made else { throw HarnessError("pipe failed") }
        defer { Glibc.close(ends[0]) }
        let watchdog: Spawned
        do {
            watchdog = try Spawned(
                "/bin/sh", ["-c", "read -r _ignored; kill -KILL \(victim.pid) 2>/dev/null"],
                environment: Sandbox.baseEnvironment,
                directory: root, label: "watchdog", stdin: ends[0])
        } catch {
            Glibc.close(ends[1])
            throw error
        }
        lock.lock()
        watchdogs.append((watchdog, ends[1]))
        lock.unlock()
    }

    /// Runs a tool to completion (killed by PID after `timeout`) and returns its status and output.
    public func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = Sandbox.baseEnvironment,
        timeout: Duration = .seconds(30)
    ) async throws -> ToolResult {
        let child = try spawn(tool, arguments, environment: environment, label: (tool as NSString).lastPathComponent)
        return try result(of: child, status: await child.waitExit(timeout: timeout), timeout: timeout)
    }

    /// `run`, blocking the calling thread: for synchronous suites and `offPool`.
    public func runBlocking(
        _ tool: String, _ arguments: [String], environment: [String: String] = Sandbox.baseEnvironment,
        timeout: Duration = .seconds(30)
    ) throws -> ToolResult {
        let child = try spawn(tool, arguments, environment: environment, label: (tool as NSString).lastPathComponent)
        return try result(of: child, status: child.waitExitBlocking(timeout: timeout), timeout: timeout)
    }

    /// The finished tool's result; a tool still running is killed, and that is an error.
    private func result(of child: Spawned, status: Int32?, timeout: Duration) throws -> ToolResult {
        guard let status else {
            child.killNow()
            throw HarnessError(
                "\(child.executable) \(child.arguments.prefix(6).joined(separator: " ")) did not finish in \(timeout)")
        }
        return ToolResult(status: status, output: child.output, errors: child.errors)
    }

    /// Stops every process still running (SIGTERM, then SIGKILL) and deletes the directory.
    public func close() {
        lock.lock()
        let all = children
        children.removeAll()
        let guards = watchdogs
        watchdogs.removeAll()
        lock.unlock()
        // Watchdogs first, so none can fire at a PID after its process was reaped.
        for (watchdog, pipe) in guards {
            watchdog.killNow()
            Glibc.close(pipe)
        }
        for child in all.reversed() where child.isRunning {
            child.send(SIGTERM)
            for _ in 0..<250 where child.isRunning { usleep(20_000) }
            child.killNow()
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A clean environment for tools: no inherited bus address, so nothing reaches a real session bus.
    public static let baseEnvironment: [String: String] = [
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "SYSTEMD_COLORS": "0",
        "SYSTEMD_PAGER": "",
        "NO_COLOR": "1",
    ]
}
