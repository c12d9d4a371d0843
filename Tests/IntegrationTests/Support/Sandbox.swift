import Foundation

/// One test's private world: a fresh temporary directory, and every process started in it.
/// `close()` (call it in a `defer`) stops them all by PID and removes the directory.
final class Sandbox: @unchecked Sendable {
    let root: String
    private let lock = NSLock()
    private var children: [Spawned] = []

    init(_ label: String) throws {
        // Short paths: a unix socket path must fit in 108 bytes.
        var template = Array("/tmp/ppit-\(label.prefix(12))-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        root = String(cString: made)
    }

    /// A path inside the sandbox.
    func path(_ name: String) -> String { "\(root)/\(name)" }

    /// Starts a process whose output lands in the sandbox; it is stopped by `close()`.
    func spawn(_ executable: String, _ arguments: [String], environment: [String: String], label: String) throws -> Spawned {
        let child = try Spawned(executable, arguments, environment: environment, directory: root, label: label)
        lock.lock()
        children.append(child)
        lock.unlock()
        return child
    }

    /// Runs a tool to completion (killed by PID after `timeout`) and returns its status and output.
    func run(_ tool: String, _ arguments: [String], environment: [String: String] = Sandbox.baseEnvironment,
             timeout: Duration = .seconds(30)) async throws -> ToolResult {
        let child = try spawn(tool, arguments, environment: environment, label: (tool as NSString).lastPathComponent)
        guard let status = await child.waitExit(timeout: timeout) else {
            child.killNow()
            throw HarnessError("\(tool) \(arguments.prefix(6).joined(separator: " ")) did not finish in \(timeout)")
        }
        return ToolResult(status: status, output: child.output, errors: child.errors)
    }

    /// Stops every process still running (SIGTERM, then SIGKILL) and deletes the directory.
    func close() {
        lock.lock()
        let all = children
        children.removeAll()
        lock.unlock()
        for child in all.reversed() where child.isRunning {
            child.send(SIGTERM)
            for _ in 0..<250 where child.isRunning { usleep(20_000) }
            child.killNow()
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A clean environment for tools: no inherited bus address, so nothing reaches a real session bus.
    static let baseEnvironment: [String: String] = [
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "SYSTEMD_COLORS": "0",
        "SYSTEMD_PAGER": "",
        "NO_COLOR": "1",
    ]
}
