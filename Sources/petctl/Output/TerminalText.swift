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
        let isolates = balancedIsolates(scalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if scalar == "\u{1B}", let length = styleLength(scalars, at: i) {
                out.append(contentsOf: scalars[i..<i + length])
                i += length
                continue
            }
            var keep =
                scalar == "\n" || (scalar == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n")
                || scalar.properties.generalCategory != .control
            if keep, Titles.isScopeControl(scalar) { keep = isolates.contains(i) }
            out.append(keep ? scalar : "\u{FFFD}")
            i += 1
        }
        return String(out)
    }

    /// Where the bidi controls that may stay are: an isolate (FSI U+2068 … PDI U+2069) opened and
    /// closed on one line, as petctl writes around right-to-left text (`Titles.isolate`), which
    /// cannot reorder anything outside it. Every other embedding, override or isolate control
    /// (U+202A–U+202E, U+2066–U+2069), from a title, a file or a quoted argument, becomes U+FFFD,
    /// so nothing a sentence quotes can reverse the rest of the line (petprogress(7) §7).
    private static func balancedIsolates(_ scalars: [Unicode.Scalar]) -> Set<Int> {
        guard scalars.contains(where: Titles.isScopeControl) else { return [] }
        var kept: Set<Int> = []
        var open: [Int] = []
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\n": open.removeAll()
            case "\u{2068}" where open.count < 60: open.append(i)
            case "\u{2069}":
                if let start = open.popLast() { kept.formUnion([start, i]) }
            default: break
            }
        }
        return kept
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
