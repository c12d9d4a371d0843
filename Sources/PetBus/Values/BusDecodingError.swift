/// A reply or signal that does not have the shape the contract gives it.
public struct BusDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One sentence naming what was expected and what arrived.
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
