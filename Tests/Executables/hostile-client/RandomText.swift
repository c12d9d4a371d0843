/// Random strings and names for hostile calls: valid UTF-8 (D-Bus demands it, Swift guarantees
/// it) without NUL, but otherwise anything — control characters, white space, combining marks,
/// right-to-left text, emoji, and now and then a string of up to 1 MiB.
struct RandomText {
    /// One string in `bigEvery` is between 64 KiB and 1 MiB long.
    let bigEvery: Int

    static let pieces: [String] = [
        "a", "Z", "0", "9", ":", "-", ",", " ", "\t", "\n", "\r", "\u{7}", "\u{1B}[31m", "\u{7F}", "\u{85}",
        "\u{A0}", "\u{200B}", "\u{202E}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "é", "e\u{301}", "ß", "日本", "ه",
        "🐱", "👩‍👩‍👧", "\u{10FFFF}", "%s%n", "'", "\"", "\\", "<b>", "${HOME}", "../../", "/", "today",
        "tomorrow", "mon", "daily", "weekdays", "09:00", "24:00", "2026-03-02", "20260302-1", "t-1",
    ]

    /// Times that are never valid `HH:MM` (petprogress(7) §3).
    static let badTimes = [
        "", "9:00", "24:00", "12:60", "ab:cd", "12:00:00", "٠٩:٠٠", " 09:00", "09:00\n", "0900", "+9:00", "-1:00",
        "99:99", "23:5", "2:3",
    ]

    func string(_ random: inout SeededRandom) -> String {
        if random.oneIn(bigEvery) {
            let size = Int.random(in: (64 << 10)...(1 << 20), using: &random)
            return String(repeating: random.pick(["x", "é", " ", "\u{7}", "🐱"]), count: size / 4)
        }
        let count = random.oneIn(20) ? Int.random(in: 0...600, using: &random) : Int.random(in: 0...12, using: &random)
        var text = ""
        for _ in 0..<count { text += random.oneIn(3) ? Self.randomScalar(&random) : random.pick(Self.pieces) }
        return text
    }

    /// A random Unicode scalar other than NUL (surrogates are not scalars).
    static func randomScalar(_ random: inout SeededRandom) -> String {
        let ranges: [ClosedRange<UInt32>] = [
            1...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF,
        ]
        let value = UInt32.random(in: random.pick(ranges), using: &random)
        return Unicode.Scalar(value).map { String(Character($0)) } ?? "?"
    }

    /// A valid member or interface element: `[A-Za-z_][A-Za-z0-9_]*`, 1 to 255 characters.
    static func element(_ random: inout SeededRandom, maximum: Int = 40) -> String {
        let first = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
        let rest = first + Array("0123456789")
        let length = Int.random(in: 1...maximum, using: &random)
        return String(random.pick(first)) + String((1..<length).map { _ in random.pick(rest) })
    }

    static func member(_ random: inout SeededRandom) -> String {
        element(&random, maximum: random.oneIn(50) ? 255 : 30)
    }

    static func interface(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 2...5, using: &random)).map { _ in element(&random, maximum: 12) }.joined(separator: ".")
    }

    static func path(_ random: inout SeededRandom) -> String {
        if random.oneIn(10) { return "/" }
        return (0..<Int.random(in: 1...8, using: &random)).map { _ in "/" + element(&random, maximum: 10) }.joined()
    }
}
