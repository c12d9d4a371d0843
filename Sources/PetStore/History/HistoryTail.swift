import PetCore

/// Where history ended when the state was written: the newest history file's year and length,
/// and the last recorded day. Stored in the state file's envelope so that a normal start-up
/// checks history with one `stat` and reads none of it; any difference (a torn append, records
/// from an interrupted closeout, a new year file) sends the load down the full repair path.
///
/// Encoded as one string, `"2026 12345 2026-03-01"` (the day `-` when none), which decodes
/// several microseconds faster than a nested object: start-up time must not grow with history.
struct HistoryTail: Equatable {
    var year: Int
    var length: Int64
    var lastDay: DayKey?
}

extension HistoryTail: Decodable, JSONWritable {
    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: " ")
        let lastDay = parts.count == 3 && parts[2] != "-" ? CivilDate(parsing: String(parts[2])) : nil
        guard parts.count == 3, let year = Int(parts[0]), (1...9999).contains(year), let length = Int64(parts[1]),
            length >= 0, parts[2] == "-" || lastDay != nil
        else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "bad history tail: \(quoted(text))"))
        }
        self.year = year
        self.length = length
        self.lastDay = lastDay
    }

    func write(to json: inout JSONWriter) { json.string("\(year) \(length) \(lastDay?.description ?? "-")") }
}
