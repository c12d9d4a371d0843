/// The one funnel every line petctl writes passes through (`Output`): nothing from the daemon, a
/// file or the command line reaches the terminal as a control (petprogress(7) §7).
///
/// Every C0 and C1 control and DEL becomes U+FFFD, so no escape sequence (an OSC 52 that sets the
/// clipboard, a cursor move, a title change) survives in a stage name, a problem sentence, a
/// link or an argument echoed back. Kept: line ends, a CR that ends a CSV record, and the SGR
/// colours ``Style`` writes (`ESC [ n m` with one of its codes), which can only colour text.
enum TerminalText {
    static func clean(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if scalar == "\u{1B}", let length = styleLength(scalars, at: i) {
                out.append(contentsOf: scalars[i..<i + length])
                i += length
                continue
            }
            let keep =
                scalar == "\n" || (scalar == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n")
                || scalar.properties.generalCategory != .control
            out.append(keep ? scalar : "\u{FFFD}")
            i += 1
        }
        return String(out)
    }

    /// The SGR codes ``Style`` writes.
    static let styleCodes: Set<String> = ["0", "1", "2", "31", "32", "33", "36"]

    /// The length of the `ESC [ n m` at `i` when `n` is one of ``styleCodes``, else nil.
    private static func styleLength(_ scalars: [Unicode.Scalar], at i: Int) -> Int? {
        guard i + 3 < scalars.count, scalars[i + 1] == "[" else { return nil }
        var code = ""
        for j in (i + 2)..<min(scalars.count, i + 5) {
            if scalars[j] == "m" { return styleCodes.contains(code) ? j - i + 1 : nil }
            code.unicodeScalars.append(scalars[j])
        }
        return nil
    }
}
