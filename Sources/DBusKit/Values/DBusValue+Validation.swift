/// Checks a value before it is written, because libdbus aborts on malformed input.
extension DBusValue {
    /// Throws `InvalidArgs` unless this value can be written as-is: a valid single complete type whose
    /// contents match their declared element signatures, strings without NUL, valid paths and signatures.
    public func validate() throws {
        guard DBusNames.isValidSingleSignature(signature) else {
            throw DBusError.invalidArgs("Invalid D-Bus type signature '\(signature)'.")
        }
        guard nestingDepth <= Self.maximumNestingDepth else {
            throw DBusError.invalidArgs("The value is nested more than \(Self.maximumNestingDepth) containers deep.")
        }
        try validateContents()
    }

    /// The D-Bus limit on containers (arrays, dict entries, structs, variants) inside one another; the bus
    /// drops a connection that sends a message nested deeper.
    public static let maximumNestingDepth = 64

    /// How many containers deep this value goes (a dictionary counts as an array plus an entry).
    public var nestingDepth: Int {
        switch self {
        case .array(_, let values): 1 + (values.map(\.nestingDepth).max() ?? 0)
        case .dictionary(_, _, let entries):
            2 + (entries.map { Swift.max($0.key.nestingDepth, $0.value.nestingDepth) }.max() ?? 0)
        case .structure(let fields): 1 + (fields.map(\.nestingDepth).max() ?? 0)
        case .variant(let inner): 1 + inner.nestingDepth
        default: 0
        }
    }

    private func validateContents() throws {
        switch self {
        case .string(let s):
            guard DBusNames.noNUL(s) else { throw DBusError.invalidArgs("A string contains a NUL character.") }
        case .objectPath(let p):
            try DBusNames.requireObjectPath(p)
        case .signature(let g):
            guard DBusNames.isValidSignature(g), g.utf8.count <= 255 else {
                throw DBusError.invalidArgs("Invalid signature value '\(g)'.")
            }
        case .unixFD(let fd):
            guard fd >= 0 else { throw DBusError.invalidArgs("Invalid file descriptor \(fd).") }
        case .array(let element, let values):
            for value in values {
                guard value.signature == element else {
                    throw DBusError.invalidArgs("Array element '\(value.signature)' is not '\(element)'.")
                }
                try value.validateContents()
            }
        case .dictionary(let key, let valueSignature, let entries):
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueSignature else {
                    throw DBusError.invalidArgs("Dictionary entry does not match '{\(key)\(valueSignature)}'.")
                }
                try entry.key.validateContents()
                try entry.value.validateContents()
            }
        case .structure(let fields):
            for field in fields { try field.validateContents() }
        case .variant(let inner):
            // A variant holds one complete type, and nesting counts toward the depth limit separately.
            try inner.validate()
        case .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            break
        }
    }
}
