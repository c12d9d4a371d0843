import DBusKit

/// A contract key: an enum whose raw values are the `a{sv}` key strings.
typealias BusKey = RawRepresentable<String>

/// Reads the typed fields of an `a{sv}`; a missing key or another type is a ``BusDecodingError``.
/// Keys it is not asked for are ignored (petprogress(7) §6.2: clients ignore keys they do not know).
struct VardictReader {
    let values: [String: DBusValue]
    let what: String

    init(_ value: DBusValue, _ what: String) throws(BusDecodingError) {
        guard let values = value.vardictValue else {
            throw BusDecodingError("\(what) should be a{sv}, not '\(value.signature)'.")
        }
        self.values = values
        self.what = what
    }

    func value(_ key: some BusKey) throws(BusDecodingError) -> DBusValue {
        guard let value = values[key.rawValue] else {
            throw BusDecodingError("\(what) lacks the key '\(key.rawValue)'.")
        }
        return value
    }

    private func typed<T>(_ key: some BusKey, _ signature: String, _ extract: (DBusValue) -> T?)
        throws(BusDecodingError)
        -> T
    {
        let value = try value(key)
        guard let result = extract(value) else {
            throw BusDecodingError("\(what) key '\(key.rawValue)' should be '\(signature)', not '\(value.signature)'.")
        }
        return result
    }

    func string(_ key: some BusKey) throws(BusDecodingError) -> String { try typed(key, "s") { $0.stringValue } }
    func bool(_ key: some BusKey) throws(BusDecodingError) -> Bool { try typed(key, "b") { $0.boolValue } }
    /// A key added to the contract later: its absence reads as `fallback` (a wrong type is an error).
    func string(_ key: some BusKey, addedLater fallback: String) throws(BusDecodingError) -> String {
        values[key.rawValue] == nil ? fallback : try string(key)
    }

    /// A key added to the contract later: `absent` when the sender does not know it yet, but
    /// still a ``BusDecodingError`` when it is present with another type.
    func bool(_ key: some BusKey, absent: Bool) throws(BusDecodingError) -> Bool {
        values[key.rawValue] == nil ? absent : try bool(key)
    }
    func int(_ key: some BusKey) throws(BusDecodingError) -> Int { try typed(key, "i") { $0.int32Value.map(Int.init) } }
    /// A key added to the contract later: its absence reads as `fallback` (a wrong type is an error).
    func int(_ key: some BusKey, addedLater fallback: Int) throws(BusDecodingError) -> Int {
        values[key.rawValue] == nil ? fallback : try int(key)
    }
    func int64(_ key: some BusKey) throws(BusDecodingError) -> Int64 { try typed(key, "x") { $0.int64Value } }
    /// A key added to the contract after the first release: an older daemon does not send it, and
    /// its absence reads as `fallback` (a wrong type is still an error).
    func int64(_ key: some BusKey, addedLater fallback: Int64) throws(BusDecodingError) -> Int64 {
        values[key.rawValue] == nil ? fallback : try int64(key)
    }

    func uint32(_ key: some BusKey) throws(BusDecodingError) -> UInt32 { try typed(key, "u") { $0.uint32Value } }
    func uint64(_ key: some BusKey) throws(BusDecodingError) -> UInt64 { try typed(key, "t") { $0.uint64Value } }
    /// A key added to the contract later: its absence reads as `fallback` (a wrong type is an error).
    func uint64(_ key: some BusKey, addedLater fallback: UInt64) throws(BusDecodingError) -> UInt64 {
        values[key.rawValue] == nil ? fallback : try uint64(key)
    }
    func double(_ key: some BusKey) throws(BusDecodingError) -> Double { try typed(key, "d") { $0.doubleValue } }
    /// A key added to the contract later: its absence reads as `fallback` (a wrong type is an error).
    func double(_ key: some BusKey, addedLater fallback: Double) throws(BusDecodingError) -> Double {
        values[key.rawValue] == nil ? fallback : try double(key)
    }

    func strings(_ key: some BusKey) throws(BusDecodingError) -> [String] {
        try typed(key, "as") { value in
            guard case .array("s", let items) = value else { return nil }
            return items.compactMap(\.stringValue)
        }
    }

    func records(_ key: some BusKey) throws(BusDecodingError) -> [DBusValue] {
        try typed(key, "aa{sv}") { value in
            guard case .array("a{sv}", let items) = value else { return nil }
            return items
        }
    }
}

/// The elements of an `aa{sv}` reply, each decoded.
func decodeRecords<T>(_ value: DBusValue?, _ what: String, _ decode: (DBusValue) throws(BusDecodingError) -> T)
    throws(BusDecodingError) -> [T]
{
    guard let value, case .array("a{sv}", let items) = value else {
        throw BusDecodingError("\(what) should be aa{sv}, not '\(value?.signature ?? "nothing")'.")
    }
    var result: [T] = []
    for item in items { result.append(try decode(item)) }
    return result
}
