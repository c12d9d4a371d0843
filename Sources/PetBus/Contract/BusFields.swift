import DBusKit

/// The values of one message body — a method's arguments or its reply — as one typed value:
/// their names and types for the description, and the coding both sides share.
public struct BusFields<Value>: Sendable {
    /// Each value's name and D-Bus type, in order.
    public let fields: [(name: String, type: String)]
    /// As values (arguments and small replies); nil when one of them is only ever written.
    let values: (@Sendable (Value) -> [DBusValue])?
    /// Straight into a body (the large replies); nil when one of them cannot be.
    let write: (@Sendable (Value, inout BodyWriter) -> Void)?
    /// From values whose signature has been checked.
    let decode: @Sendable ([DBusValue]) throws(BusDecodingError) -> Value

    /// Whether the daemon writes this body straight into its reply (else it sends ``encode(_:)``'s values).
    public var isWritten: Bool { write != nil }

    /// The body's signature.
    public var signature: String { fields.map(\.type).joined() }

    /// The values, for a message (empty when they cannot be made: a unit test proves they can).
    public func encode(_ value: Value) -> [DBusValue] { values?(value) ?? [] }

    /// The body written once, for the daemon's kept and large replies.
    public func encoded(_ value: Value) throws -> EncodedBody {
        guard let write else { throw DBusError.failed("A '\(signature)' body cannot be written directly.") }
        return try EncodedBody { write(value, &$0) }
    }

    /// Decodes `values`, read from a message whose signature is ``signature``.
    public func decode(_ values: [DBusValue]) throws(BusDecodingError) -> Value {
        guard values.count == fields.count else {
            throw BusDecodingError("Expected \(fields.count) values ('\(signature)'), got \(values.count).")
        }
        return try decode(values)
    }
}

extension BusFields where Value == Void {
    /// No values.
    static var none: BusFields<Void> { .init(fields: [], values: { _ in [] }, write: { _, _ in }, decode: { _ in }) }
}

extension BusFields {
    static func of<A>(_ a: BusArg<A>) -> BusFields<A> {
        var values: (@Sendable (A) -> [DBusValue])?
        if let va = a.value { values = { [va($0)] } }
        var write: (@Sendable (A, inout BodyWriter) -> Void)?
        if let wa = a.write { write = { value, body in wa(value, &body) } }
        return .init(
            fields: [(a.name, a.type)], values: values, write: write,
            decode: { values throws(BusDecodingError) in try a.decode(values[0]) })
    }

    static func of<A, B>(_ a: BusArg<A>, _ b: BusArg<B>) -> BusFields<(A, B)> {
        var values: (@Sendable ((A, B)) -> [DBusValue])?
        if let va = a.value, let vb = b.value { values = { [va($0.0), vb($0.1)] } }
        var write: (@Sendable ((A, B), inout BodyWriter) -> Void)?
        if let wa = a.write, let wb = b.write {
            write = { value, body in
                wa(value.0, &body)
                wb(value.1, &body)
            }
        }
        return .init(
            fields: [(a.name, a.type), (b.name, b.type)], values: values, write: write,
            decode: { values throws(BusDecodingError) in (try a.decode(values[0]), try b.decode(values[1])) })
    }

    static func of<A, B, C>(_ a: BusArg<A>, _ b: BusArg<B>, _ c: BusArg<C>) -> BusFields<(A, B, C)> {
        var values: (@Sendable ((A, B, C)) -> [DBusValue])?
        if let va = a.value, let vb = b.value, let vc = c.value { values = { [va($0.0), vb($0.1), vc($0.2)] } }
        return .init(
            fields: [(a.name, a.type), (b.name, b.type), (c.name, c.type)], values: values, write: nil,
            decode: { values throws(BusDecodingError) in
                (try a.decode(values[0]), try b.decode(values[1]), try c.decode(values[2]))
            })
    }

    static func of<A, B, C, D>(_ a: BusArg<A>, _ b: BusArg<B>, _ c: BusArg<C>, _ d: BusArg<D>)
        -> BusFields<(A, B, C, D)>
    {
        var values: (@Sendable ((A, B, C, D)) -> [DBusValue])?
        if let va = a.value, let vb = b.value, let vc = c.value, let vd = d.value {
            values = { [va($0.0), vb($0.1), vc($0.2), vd($0.3)] }
        }
        return .init(
            fields: [(a.name, a.type), (b.name, b.type), (c.name, c.type), (d.name, d.type)], values: values,
            write: nil,
            decode: { values throws(BusDecodingError) in
                (try a.decode(values[0]), try b.decode(values[1]), try c.decode(values[2]), try d.decode(values[3]))
            })
    }
}
