/// Reads a POSIX TZ rule string byte by byte (the grammar is ASCII). Strict: every byte must be
/// part of the rule, and every number in range, or the whole string is an error.
struct PosixTZParser {
    /// Longer strings are not rules (the longest in tzdata is 44 bytes).
    static let maximumLength = 256

    let text: String
    let bytes: [UInt8]
    var position = 0

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8.prefix(Self.maximumLength + 1))
    }

    /// `std offset [dst [offset] [,start[/time],end[/time]]]`.
    mutating func parse() throws(ZoneError) -> (PosixTZ.Period, PosixTZ.Daylight?) {
        guard bytes.count <= Self.maximumLength else { throw ZoneError("longer than 256 bytes") }
        let standard = PosixTZ.Period(name: try name(), offset: try offset(required: true) ?? 0)
        guard position < bytes.count else { return (standard, nil) }
        let dstName = try name()
        let dst = PosixTZ.Period(name: dstName, offset: try offset(required: false) ?? standard.offset + 3600)
        guard position < bytes.count else {
            // No dates: glibc's default, the United States' rules since 2007.
            let start = PosixTZ.Change(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            let end = PosixTZ.Change(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
            return (standard, PosixTZ.Daylight(period: dst, start: start, end: end))
        }
        try expect(UInt8(ascii: ","), "a comma before the date daylight time starts")
        let start = try change()
        try expect(UInt8(ascii: ","), "a comma before the date daylight time ends")
        let end = try change()
        guard position == bytes.count else { throw failure("unexpected text after the end date") }
        return (standard, PosixTZ.Daylight(period: dst, start: start, end: end))
    }

    /// `<…>` (letters, digits, `+`, `-`) or letters only; at least 3 characters.
    mutating func name() throws(ZoneError) -> String {
        let quoted = peek == UInt8(ascii: "<")
        if quoted { position += 1 }
        let first = position
        while let b = peek, isLetter(b) || (quoted && (isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")))
        {
            position += 1
        }
        let name = String(decoding: bytes[first..<position], as: UTF8.self)
        if quoted { try expect(UInt8(ascii: ">"), "a closing > after the quoted abbreviation") }
        guard name.utf8.count >= 3 else { throw failure("a zone abbreviation of at least 3 letters") }
        return name
    }

    /// `[+-]hh[:mm[:ss]]`, hours 0…24, counted west of UTC; returned as seconds east.
    mutating func offset(required: Bool) throws(ZoneError) -> Int? {
        guard let b = peek, isDigit(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") else {
            if required { throw failure("an offset from UTC") }
            return nil
        }
        return -(try signedTime(maxHourDigits: 2, maxHours: 24))
    }

    /// `Jn`, `n` or `Mm.w.d`, then `/time` (default 02:00).
    mutating func change() throws(ZoneError) -> PosixTZ.Change {
        let date: PosixTZ.ChangeDate
        if peek == UInt8(ascii: "J") {
            position += 1
            date = .julian(try number(maxDigits: 3, in: 1...365, "a day 1…365 after J"))
        } else if peek == UInt8(ascii: "M") {
            position += 1
            let month = try number(maxDigits: 2, in: 1...12, "a month 1…12 after M")
            try expect(UInt8(ascii: "."), "a dot after the month")
            let week = try number(maxDigits: 1, in: 1...5, "a week 1…5")
            try expect(UInt8(ascii: "."), "a dot after the week")
            let weekday = try number(maxDigits: 1, in: 0...6, "a weekday 0…6")
            date = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            date = .zeroBased(try number(maxDigits: 3, in: 0...365, "a date (Jn, n or Mm.w.d)"))
        }
        guard peek == UInt8(ascii: "/") else { return PosixTZ.Change(date: date, time: 7200) }
        position += 1
        return PosixTZ.Change(date: date, time: try signedTime(maxHourDigits: 3, maxHours: 167))
    }

    /// `[+-]h[:mm[:ss]]` in seconds, with `-` negative.
    mutating func signedTime(maxHourDigits: Int, maxHours: Int) throws(ZoneError) -> Int {
        var sign = 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
            sign = peek == UInt8(ascii: "-") ? -1 : 1
            position += 1
        }
        var seconds = try number(maxDigits: maxHourDigits, in: 0...maxHours, "hours 0…\(maxHours)") * 3600
        for unit in [60, 1] {
            guard peek == UInt8(ascii: ":") else { break }
            position += 1
            seconds += try number(maxDigits: 2, in: 0...59, unit == 60 ? "minutes 0…59" : "seconds 0…59") * unit
        }
        return sign * seconds
    }

    /// A decimal number of 1…`maxDigits` digits within `range`.
    mutating func number(maxDigits: Int, in range: ClosedRange<Int>, _ what: String) throws(ZoneError) -> Int {
        let first = position
        var value = 0
        while let b = peek, isDigit(b) {
            guard position - first < maxDigits else { throw failure("\(what) (too many digits)") }
            value = value * 10 + Int(b - UInt8(ascii: "0"))
            position += 1
        }
        guard position > first, range.contains(value) else { throw failure(what) }
        return value
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(ZoneError) {
        guard peek == byte else { throw failure(what) }
        position += 1
    }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    func failure(_ expected: String) -> ZoneError {
        ZoneError("at byte \(position + 1) of \"\(ZoneError.printable(text, limit: 60))\", expected \(expected)")
    }

    func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
