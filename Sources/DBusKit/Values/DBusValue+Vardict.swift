/// Builders and readers for the `a{sv}` dictionaries that D-Bus APIs use for extensible records.
extension DBusValue {
    /// An `a{sv}` from ordered pairs; each value is wrapped in a variant.
    public static func vardict(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            pairs.map { DictEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// An `a{sv}` from a dictionary, with keys sorted so the encoding is deterministic.
    public static func vardict(_ dictionary: [String: DBusValue]) -> DBusValue {
        vardict(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// An `aa{sv}` from a list of records.
    public static func vardictArray(_ records: [[(String, DBusValue)]]) -> DBusValue {
        .array(elementSignature: "a{sv}", records.map { vardict($0) })
    }

    /// An `as` from strings.
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// The contents of an `a{sv}` with the variants unwrapped, or nil for any other type.
    /// A repeated key keeps its last value.
    public var vardictValue: [String: DBusValue]? {
        guard case .dictionary("s", "v", let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue, let value = entry.value.variantValue else { return nil }
            result[key] = value
        }
        return result
    }

    /// The records of an `aa{sv}`, or nil for any other type.
    public var vardictArrayValue: [[String: DBusValue]]? {
        guard case .array("a{sv}", let elements) = self else { return nil }
        var records: [[String: DBusValue]] = []
        for element in elements {
            guard let record = element.vardictValue else { return nil }
            records.append(record)
        }
        return records
    }
}
