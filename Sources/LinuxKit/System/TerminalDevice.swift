import Glibc

/// The terminal calls petctl's screens make (`isatty`, `TIOCGWINSZ`, `tcgetattr`/`tcsetattr`),
/// through the funnel like every other system call, with no C type in their signatures.
public enum TerminalDevice {
    /// Whether `descriptor` is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The terminal's size in columns and rows, or nil when `descriptor` is not a terminal or it
    /// reports no size (0 × 0, as some pseudo-terminals do before they are sized).
    public static func size(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// A terminal's modes, as `tcgetattr` gave them: to be put back as they were.
    public struct Modes: Sendable {
        fileprivate var value: termios

        /// Raw mode, from these (kilo's `enableRawMode`): no line editing, echo or signal keys
        /// (Ctrl-C and Ctrl-Z arrive as keys), no CR translation, no output processing, reads
        /// return each byte as it comes.
        public var raw: Modes {
            var raw = value
            raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
            raw.c_oflag &= ~tcflag_t(OPOST)
            raw.c_cflag |= tcflag_t(CS8)
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            return Modes(value: raw)
        }
    }

    /// The terminal's modes now.
    public static func modes(_ descriptor: Int32) throws(SystemCallError) -> Modes {
        var modes = termios()
        try SystemCall.run("tcgetattr") { tcgetattr(descriptor, &modes) }
        return Modes(value: modes)
    }

    /// Puts `modes` in force once the output written so far is sent, dropping unread input
    /// (`TCSAFLUSH`).
    public static func setModes(_ descriptor: Int32, _ modes: Modes) throws(SystemCallError) {
        var value = modes.value
        try SystemCall.run("tcsetattr") { tcsetattr(descriptor, TCSAFLUSH, &value) }
    }
}
