/// Runs `tool` (looked up in `PATH`) to completion in a sandbox of its own, blocking the calling
/// thread, for tests that have no sandbox: its status and output. Killed by PID after `timeout`.
public func runTool(
    _ tool: String, _ arguments: [String], environment: [String: String] = Sandbox.baseEnvironment,
    timeout: Duration = .seconds(30)
) throws -> ToolResult {
    let sandbox = try Sandbox("tool")
    defer { sandbox.close() }
    return try sandbox.runBlocking(tool, arguments, environment: environment, timeout: timeout)
}
