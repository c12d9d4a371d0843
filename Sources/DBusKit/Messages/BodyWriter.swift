import CDBus

/// Writes typed values straight into a message body through `DBusMessageIter`, with no
/// ``DBusValue`` tree in between and no validation pass: every container signature is a constant
/// of this type, so libdbus cannot be handed a malformed one, and the only check left is the one a
/// Swift string can fail (a NUL, which would cut the C string short: it becomes U+FFFD).
///
/// The shape it writes is the contract's: `a{sv}` dictionaries of basic values, `as` lists,
/// `aa{sv}` records and a top-level `b`. Out of memory (libdbus's only failure here) is recorded
/// in ``failed``; the rest of the body is then skipped.
public struct BodyWriter {
    private var iter: DBusMessageIter
    /// True once libdbus could not allocate; the body is then incomplete and must not be sent.
    public private(set) var failed = false

    init(appendingTo message: Message) {
        iter = DBusMessageIter()
        dbus_message_iter_init_append(message.raw, &iter)
    }

    private init(sub: DBusMessageIter) {
        iter = sub
    }

    // MARK: values at the top level or as array elements

    /// An `a{sv}`: `fill` adds its entries with the `entry` methods, in the order they appear.
    public mutating func vardict(_ fill: (inout BodyWriter) -> Void) {
        container(CDBUS_TYPE_ARRAY, "{sv}", fill)
    }

    /// An `aa{sv}`: `fill` writes each record with ``vardict(_:)``.
    public mutating func records(_ fill: (inout BodyWriter) -> Void) {
        container(CDBUS_TYPE_ARRAY, "a{sv}", fill)
    }

    /// A `b`.
    public mutating func bool(_ value: Bool) { basic(CDBUS_TYPE_BOOLEAN, dbus_bool_t(value ? 1 : 0)) }

    /// A `v` holding an `a{sv}` (a property's value in `Properties.Get`): `fill` writes that one
    /// dictionary with ``vardict(_:)``.
    public mutating func variantOfVardict(_ fill: (inout BodyWriter) -> Void) {
        container(CDBUS_TYPE_VARIANT, "a{sv}", fill)
    }

    // MARK: entries of an a{sv}

    /// `key` → `i`.
    public mutating func entry(_ key: String, int32 value: Int32) {
        entry(key, "i") { $0.basic(CDBUS_TYPE_INT32, value) }
    }
    /// `key` → `x`.
    public mutating func entry(_ key: String, int64 value: Int64) {
        entry(key, "x") { $0.basic(CDBUS_TYPE_INT64, value) }
    }
    /// `key` → `t`.
    public mutating func entry(_ key: String, uint64 value: UInt64) {
        entry(key, "t") { $0.basic(CDBUS_TYPE_UINT64, value) }
    }
    /// `key` → `d`.
    public mutating func entry(_ key: String, double value: Double) {
        entry(key, "d") { $0.basic(CDBUS_TYPE_DOUBLE, value) }
    }
    /// `key` → `b`.
    public mutating func entry(_ key: String, bool value: Bool) {
        entry(key, "b") { $0.bool(value) }
    }
    /// `key` → `s`.
    public mutating func entry(_ key: String, string value: String) { entry(key, "s") { $0.string(value) } }
    /// `key` → `as`.
    public mutating func entry(_ key: String, strings values: [String]) {
        entry(key, "as") { v in
            v.container(CDBUS_TYPE_ARRAY, "s") { a in for value in values { a.string(value) } }
        }
    }
    /// `key` → `aa{sv}`: `fill` writes each record with ``vardict(_:)``.
    public mutating func entry(_ key: String, records fill: (inout BodyWriter) -> Void) {
        entry(key, "aa{sv}") { $0.records(fill) }
    }

    // MARK: the iterator calls

    private mutating func entry(_ key: String, _ signature: StaticString, _ value: (inout BodyWriter) -> Void) {
        container(CDBUS_TYPE_DICT_ENTRY, nil) { pair in
            pair.string(key)
            pair.container(CDBUS_TYPE_VARIANT, signature, value)
        }
    }

    private mutating func basic<T: BitwiseCopyable>(_ type: Int32, _ value: T) {
        guard !failed else { return }
        var copy = value
        if dbus_message_iter_append_basic(&iter, type, &copy) == 0 { failed = true }
    }

    private mutating func string(_ value: String) {
        guard !failed else { return }
        // libdbus copies the string; it takes a pointer to the `const char *`.
        let text = value.utf8.contains(0) ? value.replacingNUL() : value
        let ok = text.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_STRING, &pointer)
        }
        if ok == 0 { failed = true }
    }

    private mutating func container(_ type: Int32, _ signature: StaticString?, _ fill: (inout BodyWriter) -> Void) {
        guard !failed else { return }
        var sub = BodyWriter(sub: DBusMessageIter())
        let opened =
            if let signature {
                signature.withUTF8Buffer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        dbus_message_iter_open_container(&iter, type, $0.baseAddress, &sub.iter)
                    }
                }
            } else {
                dbus_message_iter_open_container(&iter, type, nil, &sub.iter)
            }
        guard opened != 0 else {
            failed = true
            return
        }
        fill(&sub)
        if sub.failed {
            // A half-written container must be abandoned, not closed, or libdbus asserts.
            dbus_message_iter_abandon_container(&iter, &sub.iter)
            failed = true
        } else if dbus_message_iter_close_container(&iter, &sub.iter) == 0 {
            failed = true
        }
    }
}
