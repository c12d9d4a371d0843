import Foundation

/// A process a test started, read line by line from its stdout, and stopped by its PID.
///
/// Spawned with `posix_spawn` and an empty signal mask: Foundation's `Process` spawns from a thread
/// that blocks most signals, and the child inherits that mask, so SIGTERM would never reach it.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let output: FileHandle
    private let errors: FileHandle
    private var buffer = Data()
    private var status: Int32?

    init(_ executable: String, _ arguments: [String]) throws {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw FixtureError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw FixtureError("cannot start \(executable): error \(result)")
        }
        pid = child
        output = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true)
    }

    deinit {
        stop()
    }

    /// The next line of stdout, or nil at end of file.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = output.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Everything written to stderr (call after the process exited).
    func readErrors() -> String {
        String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Waits for exit and returns the exit status (128 + signal when killed).
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = code
        return code
    }

    /// Sends SIGTERM to this PID (never by name) and waits for it.
    func stop() {
        if status == nil { kill(pid, SIGTERM) }
        wait()
    }

    /// Sends SIGKILL to this PID and waits for it.
    func killHard() {
        if status == nil { kill(pid, SIGKILL) }
        wait()
    }
}

/// The result of running a command-line tool to completion.
struct ToolResult {
    var status: Int32
    var output: String
    var errors: String
}

/// Runs `tool` (looked up in PATH) with `arguments` and waits for it.
func runTool(_ tool: String, _ arguments: [String]) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes before waiting so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    DispatchQueue.global().async(group: group) { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ToolResult(
        status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        errors: String(decoding: errorData, as: UTF8.self))
}
