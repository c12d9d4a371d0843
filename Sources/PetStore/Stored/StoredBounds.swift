import PetCore

// Every value read from a file is checked with the bounds the bus uses (petprogress(7) §5, `Bounds`
// and the checks beside the types): a value out of bounds is a decoding error naming its key and
// the problem, so the file is damaged exactly as one that does not parse.
extension KeyedDecodingContainer where K == StoredKey {
    /// The error for a value of `key` that is out of bounds.
    func outOfBounds(_ key: StoredKey, _ problem: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: problem))
    }

    /// The error for a value `PetWorld.boundsProblem` or `DayRecord.boundsProblem` found out of bounds.
    func outOfBounds(_ problem: BoundsProblem) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: problem.description))
    }

    /// An integer within `range`; `what` names the kind of value in the problem sentence.
    func decode<T: FixedWidthInteger & Decodable>(
        _ type: T.Type, forKey key: StoredKey, within range: ClosedRange<Int64>, _ what: String
    ) throws -> T {
        // Read wide, so that a number no `T` holds is named as out of bounds, not as bad JSON.
        let wide = try? decode(Int64.self, forKey: key)
        guard let wide, range.contains(wide), let value = T(exactly: wide) else {
            guard let shown = wide.map(String.init) ?? (try? decode(Double.self, forKey: key)).map({ "\($0)" }) else {
                return try decode(T.self, forKey: key)  // not a number: the decoder's own error
            }
            throw outOfBounds(key, "\(shown) is not \(what) (\(range.lowerBound)…\(range.upperBound))")
        }
        return value
    }

    /// A counter, a stage index or XP: 0…2³¹−1.
    func decodeCount<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: StoredKey) throws -> T {
        try decode(T.self, forKey: key, within: Bounds.count, "a count")
    }

    /// An instant in the years 1970–9999.
    func decodeInstant(forKey key: StoredKey) throws -> Instant {
        try decode(Instant.self, forKey: key, within: Bounds.instant, "an instant in the years 1970–9999")
    }

    func decodeInstantIfPresent(forKey key: StoredKey) throws -> Instant? {
        // One look-up in the usual case: absent, or an instant within the bounds.
        do {
            guard let value = try decodeIfPresent(Instant.self, forKey: key) else { return nil }
            if Bounds.instant.contains(value) { return value }
        } catch {}
        return try decodeInstant(forKey: key)  // names the problem
    }

    /// A value that passes the bus's check of it (the value stored is kept as it is).
    func decode<T: Decodable, Checked>(
        _ type: T.Type, forKey key: StoredKey, checkedBy check: (T) throws(PetError) -> Checked
    ) throws -> T {
        let value = try decode(T.self, forKey: key)
        do { _ = try check(value) } catch { throw outOfBounds(key, error.message) }
        return value
    }
}
