/// Display width in terminal columns, counted per grapheme cluster: emoji and East Asian wide
/// characters take two, combining marks and format characters none (so `é` written as e + ◌́ is
/// one column, and 👩‍💻 is two).
enum TextWidth {
    static func columns(_ text: String) -> Int {
        // Printable ASCII (most titles) is a column a byte; grapheme breaking is for the rest.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + columns($1) }
    }

    static func columns(_ cluster: Character) -> Int {
        guard let first = cluster.unicodeScalars.first else { return 0 }
        let props = first.properties
        switch props.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator: return 0
        default: break
        }
        if props.isEmojiPresentation { return 2 }
        // A text-default emoji followed by VS16 (U+FE0F) is shown as emoji: two columns.
        if props.isEmoji, cluster.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F).
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns on a grapheme-cluster boundary, ending in `…` when
    /// anything was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard columns(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for cluster in text {
            let w = columns(cluster)
            if used + w > width - 1 { break }
            result.append(cluster)
            used += w
        }
        return result + "…"
    }

    /// `text` broken into lines of at most `width` columns at spaces (a word longer than a line is
    /// truncated).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            let candidate = line.isEmpty ? word : "\(line) \(word)"
            if columns(candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = truncate(word, to: width)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` followed by spaces up to `width` columns.
    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }

    /// Spaces up to `width` columns, then `text`.
    static func padLeft(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - columns(text))) + text
    }

    /// Items joined by `separator` (two spaces), a new line when the next would pass `width`
    /// (`columns` counts each item without its colour codes).
    static func pack(_ items: [(text: String, columns: Int)], width: Int, separator: String = "  ") -> [String] {
        let gap = columns(separator)
        var lines: [String] = []
        var line = ""
        var used = 0
        for item in items {
            if used > 0, used + gap + item.columns > width {
                lines.append(line)
                line = ""
                used = 0
            }
            line += (used > 0 ? separator : "") + item.text
            used += (used > 0 ? gap : 0) + item.columns
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
