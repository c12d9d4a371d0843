import CDBus
import Glibc

/// Reads a message body into ``DBusValue``s through `DBusMessageIter`.
///
/// Every read is bounded: a body may hold a 64 MiB array, whose tree of ``DBusValue``s would be
/// tens of times larger, so an array is measured (`dbus_message_iter_get_element_count`, before
/// any element is read) against what is left of a budget of values, and refused past it.
extension Message {
    /// How many values one read may produce, containers and what they hold counted alike: far
    /// above any reply of the services DBusKit serves, far below what a hostile body could hold.
    public static let valueBudget = 1 << 20

    /// Every argument of the body, in order. Throws `InvalidArgs` for a value DBusKit cannot
    /// represent, or for a body of more than `budget` values.
    public func arguments(budget: Int = Message.valueBudget, stringLimit: Int = .max) throws -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }  // FALSE: empty body
        var left = budget
        return try Self.readAll(&iter, &left, stringLimit)
    }

    /// The argument at `index` alone (the ones before it are skipped, not read), or nil when the
    /// body is shorter. Bounded as ``arguments(budget:)`` is.
    public func argument(at index: Int, budget: Int = Message.valueBudget, stringLimit: Int = .max) throws
        -> DBusValue?
    {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return nil }
        for _ in 0..<index where dbus_message_iter_next(&iter) == 0 { return nil }
        guard dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID else { return nil }
        var left = budget
        return try Self.read(&iter, &left, stringLimit)
    }

    /// The signature of the value inside the variant at argument `index`, read from the header of
    /// the variant without reading the value; nil when that argument is not a variant.
    public func variantSignature(at index: Int) -> String? {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return nil }
        for _ in 0..<index where dbus_message_iter_next(&iter) == 0 { return nil }
        guard dbus_message_iter_get_arg_type(&iter) == CDBUS_TYPE_VARIANT else { return nil }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        return LibDBus.takeString(dbus_message_iter_get_signature(&sub))
    }

    static func readAll(_ iter: inout DBusMessageIter, _ left: inout Int, _ limit: Int = .max) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            values.append(try read(&iter, &left, limit))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    /// One value; a string longer than `limit` bytes is read as its first `limit + 1` bytes (see
    /// ``string(_:_:)``).
    static func read(_ iter: inout DBusMessageIter, _ left: inout Int, _ limit: Int = .max) throws -> DBusValue {
        try spend(1, &left)
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
        case CDBUS_TYPE_STRING: return .string(string(&iter, limit))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(string(&iter, .max))
        case CDBUS_TYPE_SIGNATURE: return .signature(string(&iter, .max))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub, &left, limit))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub, &left, limit))
        case CDBUS_TYPE_ARRAY:
            return try readArray(&iter, &left, limit)
        default:
            throw DBusError.invalidArgs("Unsupported D-Bus type code \(type).")
        }
    }

    /// Takes `count` values from the budget, or refuses the body.
    private static func spend(_ count: Int, _ left: inout Int) throws {
        guard count <= left else { throw tooManyValues }
        left -= count
    }

    private static var tooManyValues: DBusError {
        DBusError.invalidArgs("The message holds more values than DBusKit reads from one message.")
    }

    private static func readArray(_ iter: inout DBusMessageIter, _ left: inout Int, _ limit: Int) throws -> DBusValue {
        // Measured before any element is read (each element then spends its own share).
        if Int(dbus_message_iter_get_element_count(&iter)) > left { throw tooManyValues }
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
                let key = try read(&pair, &left, limit)
                dbus_message_iter_next(&pair)
                let value = try read(&pair, &left, limit)
                entries.append(.init(key: key, value: value))
                dbus_message_iter_next(&sub)
            }
            let (keySignature, valueSignature) = splitDictEntry(elementSignature)
            return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
        }
        return .array(elementSignature: elementSignature, try readAll(&sub, &left, limit))
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

    /// A string measured on libdbus's own pointer before a Swift `String` exists: one longer than
    /// `limit` bytes becomes its first `limit + 1` bytes (a bad UTF-8 tail repaired), which is
    /// still longer than anything its member takes, so the member refuses it as too long without an
    /// 8 MiB copy (and a parse of it) ever being made. Object paths and signatures are short by
    /// libdbus's own checks (a signature is at most 255 bytes).
    private static func string(_ iter: inout DBusMessageIter, _ limit: Int) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        guard let pointer else { return "" }
        if limit == .max { return String(cString: pointer) }
        let length = strnlen(pointer, limit + 1)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
