/// Typed views of a ``DBusValue``: each returns nil when the value has another type.
extension DBusValue {
    /// The byte, or nil.
    public var byteValue: UInt8? { if case .byte(let v) = self { v } else { nil } }
    /// The boolean, or nil.
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// The int16, or nil.
    public var int16Value: Int16? { if case .int16(let v) = self { v } else { nil } }
    /// The uint16, or nil.
    public var uint16Value: UInt16? { if case .uint16(let v) = self { v } else { nil } }
    /// The int32, or nil.
    public var int32Value: Int32? { if case .int32(let v) = self { v } else { nil } }
    /// The uint32, or nil.
    public var uint32Value: UInt32? { if case .uint32(let v) = self { v } else { nil } }
    /// The int64, or nil.
    public var int64Value: Int64? { if case .int64(let v) = self { v } else { nil } }
    /// The uint64, or nil.
    public var uint64Value: UInt64? { if case .uint64(let v) = self { v } else { nil } }
    /// The double, or nil.
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    /// The string (`s` only), or nil.
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    /// The object path, or nil.
    public var objectPathValue: String? { if case .objectPath(let v) = self { v } else { nil } }
    /// The signature value, or nil.
    public var signatureValue: String? { if case .signature(let v) = self { v } else { nil } }
    /// The file descriptor, or nil.
    public var unixFDValue: Int32? { if case .unixFD(let v) = self { v } else { nil } }
    /// The elements of an array, or nil.
    public var arrayValues: [DBusValue]? { if case .array(_, let v) = self { v } else { nil } }
    /// The fields of a struct, or nil.
    public var structFields: [DBusValue]? { if case .structure(let v) = self { v } else { nil } }
    /// The value inside a variant, or nil.
    public var variantValue: DBusValue? { if case .variant(let v) = self { v } else { nil } }
    /// The entries of a dictionary, in order, or nil.
    public var dictionaryEntries: [DictEntry]? { if case .dictionary(_, _, let v) = self { v } else { nil } }

    /// The value with any number of variant wrappers removed.
    public var unwrappingVariants: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }

    /// Any integer type widened to Int64 (`y n q i u x`; `t` when it fits), or nil.
    public var integerValue: Int64? {
        switch self {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }
}
