import PetCore

/// A value stored as its text form (`2026-03-02`, `14:30`, `mon,wed`), so the files read as the
/// user wrote them: written as `description`, read back by `init?(storedText:)`.
protocol StoredText: Decodable, JSONWritable, CustomStringConvertible {
    init?(storedText: String)
}

extension StoredText {
    /// The value of a stored text; text that does not parse is a decoding error.
    static func decodeText(_ decoder: any Decoder) throws -> Self {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(storedText: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a valid \(Self.self): \(quoted(text))"))
        }
        return value
    }
}

// Dates and times are written as their `description`, or the same digits written directly where
// the fields fit their widths (always, for dates and times PetCore makes).
extension CivilDate: Decodable, StoredText {
    init?(storedText: String) { self.init(parsing: storedText) }
    public init(from decoder: any Decoder) throws { self = try Self.decodeText(decoder) }

    func write(to json: inout JSONWriter) {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
            return json.string(description)
        }
        json.paddedFields([(year, 4), (month, 2), (day, 2)], separator: UInt8(ascii: "-"))
    }
}

extension WallTime: Decodable, StoredText {
    init?(storedText: String) { self.init(parsing: storedText) }
    public init(from decoder: any Decoder) throws { self = try Self.decodeText(decoder) }

    func write(to json: inout JSONWriter) {
        guard (0...99).contains(hour), (0...99).contains(minute) else { return json.string(description) }
        json.paddedFields([(hour, 2), (minute, 2)], separator: UInt8(ascii: ":"))
    }
}

extension Repeat: Decodable, StoredText {
    init?(storedText: String) {
        guard let rule = try? Repeat.parse(storedText) else { return nil }
        self = rule
    }
    public init(from decoder: any Decoder) throws { self = try Self.decodeText(decoder) }

    func write(to json: inout JSONWriter) { json.string(description) }
}
