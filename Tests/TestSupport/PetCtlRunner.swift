import Foundation

extension World {
    /// Runs the real `petctl` against this world's bus, in Europe/Berlin, with `COLUMNS` when given
    /// (stdout is a pipe, so without it petctl assumes 80), and without the sandbox's `NO_COLOR`
    /// unless `environment` sets it.
    public func petctl(_ arguments: [String], columns: Int? = nil, environment extra: [String: String] = [:])
        async throws -> ToolResult
    {
        var environment = petctlEnvironment
        if let columns { environment["COLUMNS"] = String(columns) }
        return try await sandbox.run(
            try productBinary("petctl", override: "PETCTL"), arguments,
            environment: environment.merging(extra) { $1 })
    }

    /// The bus, Europe/Berlin, and no `NO_COLOR`.
    public var petctlEnvironment: [String: String] {
        var environment = bus.environment.merging(["TZ": "Europe/Berlin"]) { $1 }
        environment["NO_COLOR"] = nil
        return environment
    }
}
