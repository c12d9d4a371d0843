import ArgumentParser
import PetCore

/// The panel formats of `petctl widget` and `petctl watch`: each renders an entry — or
/// "the daemon is not running" — as exactly one line.
enum PanelFormat: String, CaseIterable, ExpressibleByArgument {
    case text, inline, json, waybar, polybar, i3blocks
}

/// Options every panel format shares.
struct PanelOptions: ParsableArguments {
    @Option(help: ArgumentHelp(tr("text, inline, json, waybar, polybar or i3blocks.")))
    var format: PanelFormat = .text

    @Option(
        help: ArgumentHelp(
            tr("The text to show, with placeholders %s.", Template.names.map { "{\($0)}" }.joined(separator: " ")),
            valueName: "template"))
    var template: String?

    @Option(help: ArgumentHelp(tr("Cut titles to this many columns (2–200).")))
    var titleWidth = PanelOptions.defaultTitleWidth

    static let defaultTitleWidth = 24

    func validate() throws {
        guard (2...200).contains(titleWidth) else { throw ValidationError(tr("--title-width takes 2 to 200 columns")) }
        if let template { _ = try Template(template) }
    }

    /// The line these options make, its times on `clock`.
    func line(_ clock: ClockStyle) -> PanelLine {
        PanelLine(
            format: format, template: template.flatMap { try? Template($0) }, titleWidth: titleWidth, clock: clock)
    }
}

/// A `--template`: literal text and `{placeholder}`s.
struct Template {
    static let names = [
        "glyph", "done", "total", "next_time", "next_title", "stage", "xp", "threshold", "percent", "rest",
    ]

    enum Part {
        case literal(String)
        case value(String)
    }

    let parts: [Part]

    /// Parses `text`: a `{name}` of lowercase letters and underscores is a placeholder and must be
    /// one of ``names``; any other brace (polybar's `%{F#f00}`, say) is literal text.
    init(_ text: String) throws {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}"),
                after[..<close].allSatisfy({ $0 == "_" || ("a"..."z").contains($0) }), close > after.startIndex
            else {
                literal.append("{")
                rest = after
                continue
            }
            let name = String(after[..<close])
            guard Self.names.contains(name) else {
                throw ValidationError(
                    tr("'{%s}' is not a placeholder; use %s", name, Self.names.map { "{\($0)}" }.joined(separator: " "))
                )
            }
            parts += [.literal(literal), .value(name)]
            literal = ""
            rest = after[after.index(after: close)...]
        }
        self.parts = parts + [.literal(literal + rest)]
    }

    /// The text with each placeholder's value escaped by `escape`; the template's own text is the
    /// user's (it may hold markup on purpose) and is not escaped.
    func render(_ values: [String: String], escape: (String) -> String) -> String {
        parts.map {
            switch $0 {
            case .literal(let text): text
            case .value(let name): escape(values[name] ?? "")
            }
        }.joined()
    }
}
