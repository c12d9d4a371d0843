import DBusKit

/// Builds an `a{sv}` from typed fields: the contract's one encoding of each record. It is written
/// straight into a message body (``write(into:)``, what the daemon sends) or, for clients and
/// tests, as a ``DBusValue`` (``value``); both take the same fields in the same order.
struct VardictWriter {
    /// One field's value, typed as the contract has it.
    enum Field {
        case int32(Int32)
        case int64(Int64)
        case uint64(UInt64)
        case double(Double)
        case bool(Bool)
        case string(String)
        case strings([String])
        case records([VardictWriter])
    }

    private var fields: [(key: String, field: Field)] = []

    private mutating func add(_ key: some BusKey, _ field: Field) { fields.append((key.rawValue, field)) }

    /// An `i` from any integer, clamped into 32 bits (XP keeps counting at the final stage).
    mutating func add(_ key: some BusKey, int value: Int) { add(key, .int32(Int32(clamping: value))) }
    mutating func add(_ key: some BusKey, int64 value: Int64) { add(key, .int64(value)) }
    mutating func add(_ key: some BusKey, uint64 value: UInt64) { add(key, .uint64(value)) }
    mutating func add(_ key: some BusKey, double value: Double) { add(key, .double(value)) }
    mutating func add(_ key: some BusKey, _ value: String) { add(key, .string(value)) }
    mutating func add(_ key: some BusKey, _ value: Bool) { add(key, .bool(value)) }
    mutating func add(_ key: some BusKey, strings: [String]) { add(key, .strings(strings)) }
    mutating func add(_ key: some BusKey, records: [VardictWriter]) { add(key, .records(records)) }

    /// The fields, keys sorted so the encoding is deterministic.
    private var sorted: [(key: String, field: Field)] { fields.sorted { $0.key < $1.key } }

    /// The dictionary written into a message body.
    func write(into body: inout BodyWriter) {
        body.vardict { d in
            for (key, field) in sorted {
                switch field {
                case .int32(let v): d.entry(key, int32: v)
                case .int64(let v): d.entry(key, int64: v)
                case .uint64(let v): d.entry(key, uint64: v)
                case .double(let v): d.entry(key, double: v)
                case .bool(let v): d.entry(key, bool: v)
                case .string(let v): d.entry(key, string: v)
                case .strings(let v): d.entry(key, strings: v)
                case .records(let records): d.entry(key, records: { a in for r in records { r.write(into: &a) } })
                }
            }
        }
    }

    /// The dictionary as a ``DBusValue``.
    var value: DBusValue {
        .vardict(
            sorted.map { key, field in
                switch field {
                case .int32(let v): (key, .int32(v))
                case .int64(let v): (key, .int64(v))
                case .uint64(let v): (key, .uint64(v))
                case .double(let v): (key, .double(v))
                case .bool(let v): (key, .bool(v))
                case .string(let v): (key, .string(v))
                case .strings(let v): (key, .stringArray(v))
                case .records(let records): (key, .array(elementSignature: "a{sv}", records.map(\.value)))
                }
            })
    }
}
