/// Escaping for each panel's text, applied after truncation.
enum Escaping {
    /// A JSON string literal (RFC 8259): quotes, backslashes and every control character escaped,
    /// plus U+2028/U+2029, which some JSON readers treat as line ends.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Pango markup text (waybar), and the tray tooltip's subset of HTML: `&`, `<` and `>` as entities.
    static func pango(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Polybar's formatting tags start with `%{` and polybar has no escape for them (its `%%` is
    /// not implemented, polybar PR 2748): an invisible WORD JOINER (U+2060) goes between `%` and
    /// `{`, so a title shows as typed but can neither recolour nor click the bar. (A full-width
    /// `％` drew nothing: polybar draws only from its configured fonts, and DejaVu Sans has none.)
    static func polybar(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if previous == "%" && scalar == "{" { out.append("\u{2060}") }
            out.append(scalar)
            previous = scalar
        }
        return String(out)
    }

    /// i3blocks 1.4 (Debian 12) reads a JSON string only up to its first `"`, escaped or not, and
    /// prints a `\` it read doubled. So in its records a title's `"` becomes `ʺ` (U+02BA) and `\`
    /// becomes `∖` (U+2216): they look the same and are in common text fonts.
    static func i3blocks(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    switch $0 {
                    case "\"": "\u{02BA}"
                    case "\\": "\u{2216}"
                    default: $0
                    }
                }))
    }

    /// One line: control characters and line or paragraph separators become spaces.
    static func singleLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    switch $0.properties.generalCategory {
                    case .control, .lineSeparator, .paragraphSeparator: " "
                    default: $0
                    }
                }))
    }
}
