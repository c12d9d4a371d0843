/// Titles (and stage names) as a terminal line shows them: no control characters (a title can
/// never hold one, but a line must not trust that), no bidi control that opens or closes a scope
/// (so a title cannot end the isolation around it or reverse what follows), and right-to-left
/// text isolated so it cannot reorder the rest of the line (Unicode bidi: FSI … PDI).
enum Titles {
    static func forLine(_ title: String, width: Int) -> String {
        isolate(TextWidth.truncate(clean(title), to: width))
    }

    /// The title with control characters and the bidi embeddings, overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069) replaced by U+FFFD. The marks (LRM, RLM, ALM) stay: they
    /// open nothing.
    static func clean(_ title: String) -> String {
        String(
            String.UnicodeScalarView(
                title.unicodeScalars.map {
                    $0.properties.generalCategory == .control || isScopeControl($0) ? "\u{FFFD}" : $0
                }))
    }

    /// The title cleaned and isolated: what a sentence quotes.
    static func quoted(_ title: String) -> String { isolate(clean(title)) }

    static func isolate(_ text: String) -> String {
        text.unicodeScalars.contains(where: needsIsolation) ? "\u{2068}\(text)\u{2069}" : text
    }

    static func isScopeControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko, …) and the explicit bidi
    /// controls (marks, embeddings, overrides, isolates).
    static func needsIsolation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
