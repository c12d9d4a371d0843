/// Why ``Connection/requestName(_:)`` did not make this connection the owner of a name.
public enum NameRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another connection owns the name (it was requested with DO_NOT_QUEUE, so we are not queued).
    case taken(String)
    /// The name is not a valid well-known bus name.
    case invalidName(String)
    /// The bus refused the request or could not be reached.
    case failed(DBusError)

    /// One sentence.
    public var description: String {
        switch self {
        case .taken(let name): "The bus name \(name) is already owned by another process."
        case .invalidName(let name): "'\(name)' is not a valid bus name."
        case .failed(let error): "Requesting the bus name failed: \(error)"
        }
    }
}
