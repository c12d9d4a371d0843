/// Checks a value before it is written, because libdbus aborts on malformed input.
extension DBusValue {
    /// Throws `InvalidArgs` unless this value can be written as-is: a valid single complete type whose
    /// contents match their declared element signatures, strings without NUL, valid paths and signatures.
    public func validate() throws {
        _ = try checked(depth: 0)
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

    /// Validates this value in one pass and returns its signature. `depth` is the number of containers
    /// around it (a dictionary counts as an array plus an entry, as in ``nestingDepth``). Each declared
    /// element signature is checked once per container, not once per element, and no subtree is walked
    /// twice, so the cost is linear in the size of the value.
    private func checked(depth: Int) throws -> String {
        switch self {
        case .string(let s):
            guard DBusNames.noNUL(s) else { throw DBusError.invalidArgs("A string contains a NUL character.") }
            return "s"
        case .objectPath(let p):
            try DBusNames.requireObjectPath(p)
            return "o"
        case .signature(let g):
            guard DBusNames.isValidSignature(g), g.utf8.count <= 255 else {
                throw DBusError.invalidArgs("Invalid signature value '\(g)'.")
            }
            return "g"
        case .unixFD(let fd):
            guard fd >= 0 else { throw DBusError.invalidArgs("Invalid file descriptor \(fd).") }
            return "h"
        case .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return signature
        case .array(let element, let values):
            try Self.requireDepth(depth + 1)
            let own = "a" + element
            try Self.requireSingle(own)
            for value in values {
                let found = try value.checked(depth: depth + 1)
                guard found == element else {
                    throw DBusError.invalidArgs("Array element '\(found)' is not '\(element)'.")
                }
            }
            return own
        case .dictionary(let key, let valueSignature, let entries):
            try Self.requireDepth(depth + 2)
            let own = "a{" + key + valueSignature + "}"
            try Self.requireSingle(own)
            for entry in entries {
                guard try entry.key.checked(depth: depth + 2) == key,
                    try entry.value.checked(depth: depth + 2) == valueSignature
                else {
                    throw DBusError.invalidArgs("Dictionary entry does not match '{\(key)\(valueSignature)}'.")
                }
            }
            return own
        case .structure(let fields):
            try Self.requireDepth(depth + 1)
            let own = try "(" + fields.map { try $0.checked(depth: depth + 1) }.joined() + ")"
            try Self.requireSingle(own)
            return own
        case .variant(let inner):
            // A variant holds one complete type; its contents count toward the depth limit.
            try Self.requireDepth(depth + 1)
            let contents = try inner.checked(depth: depth + 1)
            // Containers inside were checked where they were built; only a struct can still be too long.
            if case .structure = inner { try Self.requireSingle(contents) }
            return "v"
        }
    }

    private static func requireDepth(_ depth: Int) throws {
        guard depth <= maximumNestingDepth else {
            throw DBusError.invalidArgs("The value is nested more than \(maximumNestingDepth) containers deep.")
        }
    }

    private static func requireSingle(_ signature: String) throws {
        guard DBusNames.isValidSingleSignature(signature) else {
            throw DBusError.invalidArgs("Invalid D-Bus type signature '\(signature)'.")
        }
    }
}
