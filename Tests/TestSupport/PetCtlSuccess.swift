import Testing

extension World {
    /// Runs `petctl` and expects success with nothing on stderr; returns stdout.
    public func petctlOK(
        _ arguments: [String], columns: Int? = nil, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let result = try await petctl(arguments, columns: columns, environment: environment)
        #expect(result.status == 0 && result.errors.isEmpty, "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result.output
    }
}
