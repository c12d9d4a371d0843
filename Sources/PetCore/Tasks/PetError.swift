/// A rejected request: a name (PetBus spells it as the contract's D-Bus error name) and a sentence
/// for a person. Rejections change nothing.
public struct PetError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case notFound = "NotFound"
        case invalidArgument = "InvalidArgument"
        case alreadyDone = "AlreadyDone"
        case notDone = "NotDone"
        case nothingPending = "NothingPending"
        case readOnlyDay = "ReadOnlyDay"
        case storageFailure = "StorageFailure"
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
