import LinuxKit

extension EventLoop {
    /// Adds `connection`: its watches and timeouts join this loop and its queue is drained each iteration.
    public func add(_ connection: Connection) throws {
        guard source(of: connection) == nil else { return }
        add(try ConnectionSource(connection))
    }

    /// Removes `connection` from the loop (its watches go with it).
    public func remove(_ connection: Connection) {
        if let source = source(of: connection) { remove(source) }
    }

    private func source(of connection: Connection) -> ConnectionSource? {
        sources.lazy.compactMap { $0 as? ConnectionSource }.first { $0.connection === connection }
    }
}
