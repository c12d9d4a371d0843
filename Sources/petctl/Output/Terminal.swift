import Glibc
import LinuxKit

/// What stdout is: its width in columns and whether it gets colour.
struct Terminal {
    var width: Int
    var color: Bool

    /// The colour choice of `--color`: `auto` colours a terminal only.
    enum ColorChoice: String, CaseIterable {
        case auto, always, never
    }

    /// Reads `COLUMNS` (else the terminal's size, else 80) and decides on colour: never with
    /// `NO_COLOR` set or `TERM=dumb` (https://no-color.org), else as `choice` says.
    static func current(_ choice: ColorChoice, environment: ProcessEnvironment = .process) -> Terminal {
        let isTTY = TerminalDevice.isTerminal(1)
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        let color: Bool
        switch choice {
        case .auto: color = isTTY && !noColor
        case .always: color = !noColor
        case .never: color = false
        }
        return Terminal(width: width(environment: environment, isTTY: isTTY), color: color)
    }

    static func width(environment: ProcessEnvironment, isTTY: Bool) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return max(20, columns) }
        if isTTY, let size = TerminalDevice.size(1) { return max(20, size.columns) }
        return 80
    }
}

/// ANSI styles, or none when colour is off.
struct Style {
    let on: Bool

    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func cyan(_ s: String) -> String { wrap(s, "36") }

    private func wrap(_ s: String, _ code: String) -> String { on && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
}
