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

    /// Pango markup text (waybar): `&`, `<` and `>` as entities.
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
    /// not implemented, polybar PR 2748): a `%` before `{` becomes the full-width `％`, so a title
    /// can neither recolour nor click the bar.
    static func polybar(_ text: String) -> String {
        var out = ""
        var pending = false
        for ch in text {
            if pending { out.append(ch == "{" ? "％" : "%") }
            pending = ch == "%"
            if !pending { out.append(ch) }
        }
        if pending { out.append("%") }
        return out
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
