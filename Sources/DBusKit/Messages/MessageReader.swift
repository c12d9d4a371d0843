import CDBus

/// Reads a message body into ``DBusValue``s through `DBusMessageIter`.
extension Message {
    /// Every argument of the body, in order. Throws `InvalidArgs` for a value DBusKit cannot represent.
    public func arguments() throws -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }  // FALSE: empty body
        return try Self.readAll(&iter)
    }

    static func readAll(_ iter: inout DBusMessageIter) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            values.append(try read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    static func read(_ iter: inout DBusMessageIter) throws -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .bool(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(basic(&iter, Int32(-1)))
        case CDBUS_TYPE_STRING: return .string(string(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(string(&iter))
        case CDBUS_TYPE_SIGNATURE: return .signature(string(&iter))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub))
        case CDBUS_TYPE_ARRAY:
            return try readArray(&iter)
        default:
            throw DBusError.invalidArgs("Unsupported D-Bus type code \(type).")
        }
    }

    private static func readArray(_ iter: inout DBusMessageIter) throws -> DBusValue {
        // The iterator's own signature (`a...`) gives the element type even for an empty array.
        guard let arraySignature = LibDBus.takeString(dbus_message_iter_get_signature(&iter)) else {
            throw DBusError.noMemory("dbus_message_iter_get_signature")
        }
        let elementSignature = String(arraySignature.dropFirst())
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        if dbus_message_iter_get_element_type(&iter) == CDBUS_TYPE_DICT_ENTRY {
            var entries: [DBusValue.DictEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let key = try read(&pair)
                dbus_message_iter_next(&pair)
                let value = try read(&pair)
                entries.append(.init(key: key, value: value))
                dbus_message_iter_next(&sub)
            }
            let (keySignature, valueSignature) = splitDictEntry(elementSignature)
            return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
        }
        return .array(elementSignature: elementSignature, try readAll(&sub))
    }

    /// `{sv}` → (`s`, `v`): the key of a dict entry is always a one-character basic type.
    private static func splitDictEntry(_ entry: String) -> (String, String) {
        let inner = entry.dropFirst().dropLast()
        return (String(inner.prefix(1)), String(inner.dropFirst()))
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    private static func string(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }
}
