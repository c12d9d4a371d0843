import Glibc
import LinuxKit

/// The one place that changes the terminal's modes for the interactive Today screen (the model
/// is antirez/kilo's `enableRawMode`/`disableRawMode`): raw input, the alternate screen, a hidden
/// cursor and click reports on entry; every one of them undone on leaving, whatever the way out.
final class TerminalModes {
    /// The modes the terminal had before, while ours are in force.
    private var saved: TerminalDevice.Modes?

    /// Alternate screen, hidden cursor, clicks reported in SGR form (xterm's 1000 and 1006).
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h"
    static let leaveSequence = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"

    /// Saves stdin's modes and puts the terminal in raw mode on the alternate screen (raw: no line
    /// editing, echo or signal keys, so Ctrl-C and Ctrl-Z arrive as keys and Ctrl-Z cannot stop
    /// the screen with the terminal left raw; `TerminalDevice.Modes.raw`).
    func enter() throws(SystemCallError) {
        let modes = try TerminalDevice.modes(0)
        try TerminalDevice.setModes(0, modes.raw)
        saved = modes
        _ = try? SystemCall.writeAll(1, Array(Self.enterSequence.utf8))
    }

    /// Gives the terminal back as it was; does nothing the second time. A terminal that went away
    /// (SIGHUP, EIO) cannot be told, and that is no error.
    func leave() {
        guard let modes = saved else { return }
        saved = nil
        _ = try? SystemCall.writeAll(1, Array(Self.leaveSequence.utf8))
        try? TerminalDevice.setModes(0, modes)
    }

    deinit { leave() }
}
