import PetCore

/// Unix seconds of an ISO 8601 instant with `Z` or an offset, e.g. `2026-03-02T21:00:00+01:00`.
/// The tests' one reading of ISO 8601 text. Test input only: a malformed literal stops the run.
public func unix(_ iso: String) -> Int64 {
    guard let seconds = parseInstant(iso) else { fatalError("bad ISO 8601 instant in a test: \(iso)") }
    return seconds
}

/// The ISO 8601 calendar date (`2026-03-02`) of the day `days` after 1970-01-01.
public func isoDate(daysSinceEpoch days: Int) -> String { CivilDate(daysSinceEpoch: days).description }

/// `YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM`, as Unix seconds; nil for anything else.
func parseInstant(_ text: String) -> Int64? {
    let c = Array(text)
    func number(_ range: Range<Int>) -> Int? {
        guard range.upperBound <= c.count, c[range].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(String(c[range]))
    }
    guard c.count >= 20, c[10] == "T", c[13] == ":", c[16] == ":",
        let date = CivilDate(parsing: String(c[0..<10])),
        let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
        hour < 24, minute < 60, second < 60
    else { return nil }
    var offset = 0
    if c.count != 20 || c[19] != "Z" {
        guard c.count == 25, c[19] == "+" || c[19] == "-", c[22] == ":",
            let hours = number(20..<22), let minutes = number(23..<25)
        else { return nil }
        offset = (c[19] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
    return Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
}
