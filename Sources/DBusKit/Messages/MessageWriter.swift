import CDBus

/// Appends ``DBusValue``s to a message body through `DBusMessageIter`.
///
/// libdbus's `dbus_message_append_args` is a C variadic that Swift cannot call, so every value is written
/// with `append_basic` and `open_container`/`close_container`. Values are validated first, because
/// libdbus aborts on a malformed signature, path or string.
extension Message {
    /// Appends `values` to the body, after checking each of them.
    public func append(_ values: [DBusValue]) throws {
        for value in values { try value.validate() }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values { try Self.write(value, into: &iter) }
    }

    static func write(_ value: DBusValue, into iter: inout DBusMessageIter) throws {
        switch value {
        case .byte(let v): try appendBasic(CDBUS_TYPE_BYTE, v, &iter)
        case .bool(let v): try appendBasic(CDBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0), &iter)
        case .int16(let v): try appendBasic(CDBUS_TYPE_INT16, v, &iter)
        case .uint16(let v): try appendBasic(CDBUS_TYPE_UINT16, v, &iter)
        case .int32(let v): try appendBasic(CDBUS_TYPE_INT32, v, &iter)
        case .uint32(let v): try appendBasic(CDBUS_TYPE_UINT32, v, &iter)
        case .int64(let v): try appendBasic(CDBUS_TYPE_INT64, v, &iter)
        case .uint64(let v): try appendBasic(CDBUS_TYPE_UINT64, v, &iter)
        case .double(let v): try appendBasic(CDBUS_TYPE_DOUBLE, v, &iter)
        case .unixFD(let v): try appendBasic(CDBUS_TYPE_UNIX_FD, v, &iter)
        case .string(let v): try appendString(CDBUS_TYPE_STRING, v, &iter)
        case .objectPath(let v): try appendString(CDBUS_TYPE_OBJECT_PATH, v, &iter)
        case .signature(let v): try appendString(CDBUS_TYPE_SIGNATURE, v, &iter)
        case .array(let element, let values):
            try container(CDBUS_TYPE_ARRAY, element, &iter) { sub in
                for v in values { try write(v, into: &sub) }
            }
        case .dictionary(let key, let valueSignature, let entries):
            try container(CDBUS_TYPE_ARRAY, "{" + key + valueSignature + "}", &iter) { sub in
                for entry in entries {
                    try container(CDBUS_TYPE_DICT_ENTRY, nil, &sub) { pair in
                        try write(entry.key, into: &pair)
                        try write(entry.value, into: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container(CDBUS_TYPE_STRUCT, nil, &iter) { sub in
                for f in fields { try write(f, into: &sub) }
            }
        case .variant(let inner):
            try container(CDBUS_TYPE_VARIANT, inner.signature, &iter) { sub in
                try write(inner, into: &sub)
            }
        }
    }

    private static func appendBasic<T: BitwiseCopyable>(_ type: Int32, _ value: T, _ iter: inout DBusMessageIter) throws
    {
        var copy = value
        try LibDBus.check(dbus_message_iter_append_basic(&iter, type, &copy), "dbus_message_iter_append_basic")
    }

    private static func appendString(_ type: Int32, _ value: String, _ iter: inout DBusMessageIter) throws {
        // libdbus copies the string; it takes a pointer to the `const char *`.
        let ok = value.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(&iter, type, &pointer)
        }
        try LibDBus.check(ok, "dbus_message_iter_append_basic")
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws -> Void
    ) throws {
        var sub = DBusMessageIter()
        try LibDBus.check(dbus_message_iter_open_container(&iter, type, signature, &sub), "open_container")
        do {
            try body(&sub)
        } catch {
            // A half-written container must be abandoned, not closed, or libdbus asserts.
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        try LibDBus.check(dbus_message_iter_close_container(&iter, &sub), "close_container")
    }
}
