/// A value stored in JSON as its text form (`2026-03-02`, `14:30`, `mon,wed`), so the state file
/// reads as the user wrote it. Decoding text that does not parse is a decoding error; the store
/// writes `description` (PetStore's `JSONWriter`, not `Encodable`).
public protocol TextCodable: Decodable, CustomStringConvertible {
    /// The value the text names, or nil.
    init?(storedText: String)
}

extension TextCodable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(storedText: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a valid \(Self.self): \(text)"))
        }
        self = value
    }
}
