/// A value of a streamed document: the keys that lead to it from the root (nil for an array's
/// element), and its bytes' range.
public struct JSONSpan: Sendable {
    public let path: [String?]
    public let start: Int
    public let end: Int
}

/// The same reader as `JSONDocument` (RFC 8259 strictly, at most `JSONDocument.maxDepth` deep, no
/// key twice in an object, time linear in the document), run over bytes it does not keep: each
/// value that ends at most `depth` deep is handed to `sink` by its range, and then forgotten, so
/// the memory it takes does not grow with the document (only the open containers and their keys
/// are held). The caller reads a value it wants from its range, with a `JSONDocument` of its own
/// (petprogress(7) §5, import: each history record of a mapped export, checked and staged).
public enum JSONStream {
    /// The largest document streamed: 4 GiB less a byte (a token's 32-bit start).
    public static let maxBytes = (1 << 32) - 1
    /// The longest string or number: 256 MiB less a byte (a token's 28-bit length).
    public static let longestValue = 1 << 28

    /// Reads `bytes` whole; throws what is wrong and where. `sink` sees the values in the order
    /// they end (a container after what it holds).
    public static func read(_ bytes: UnsafeRawBufferPointer, depth: Int, _ sink: @escaping (JSONSpan) -> Void)
        throws(JSONReadError)
    {
        var reader = JSONTokenizer(streaming: depth, sink)
        try reader.stream(bytes.bindMemory(to: UInt8.self))
    }
}
