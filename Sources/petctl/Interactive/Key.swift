/// A key (or a click) read from the terminal in raw mode.
enum Key: Equatable {
    case up, down, enter, escape, delete, backspace, interrupt
    case character(Character)
    /// A press of the left button at a 1-based row.
    case click(row: Int)

    /// The keys in `bytes`, as much as arrived in one read: escape sequences (arrows, Delete,
    /// SGR clicks) whole, a lone ESC as Escape, UTF-8 text as characters; anything else dropped.
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B {
                let (key, length) = escape(bytes, i)
                if let key { keys.append(key) }
                i += length
                continue
            }
            i += 1
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x03: keys.append(.interrupt)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xF7:
                // A UTF-8 sequence: its length from the lead byte.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(bytes.count, i - 1 + length)
                if let text = String(validating: bytes[(i - 1)..<end], as: UTF8.self), let c = text.first {
                    keys.append(.character(c))
                }
                i = end
            default: break
            }
        }
        return keys
    }

    /// The key of the escape sequence at `start` and its length.
    private static func escape(_ bytes: [UInt8], _ start: Int) -> (Key?, Int) {
        guard start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "[") || bytes[start + 1] == UInt8(ascii: "O")
        else { return (.escape, 1) }
        // CSI: parameters and intermediates, then one final byte in @…~.
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (nil, bytes.count - start) }
        let body = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let final = Character(Unicode.Scalar(bytes[end]))
        let length = end - start + 1
        switch (body, final) {
        case ("", "A"): return (.up, length)
        case ("", "B"): return (.down, length)
        case ("3", "~"): return (.delete, length)
        case (_, "M") where body.hasPrefix("<"):
            // SGR mouse: `ESC [ < button ; column ; row M` (m is the release).
            let fields = body.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard fields.count == 3, fields[0] == 0 else { return (nil, length) }
            return (.click(row: fields[2]), length)
        default: return (nil, length)
        }
    }
}
