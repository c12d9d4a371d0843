import DBusKit

/// A value the contract sends as one `a{sv}` record, written straight into a message body.
public protocol BusRecord {
    func encode(into body: inout BodyWriter)
}

extension Array where Element: BusRecord {
    /// The records as an `aa{sv}`, written straight into a message body (the daemon's replies).
    public func encode(into body: inout BodyWriter) { body.records { for r in self { r.encode(into: &$0) } } }
}
