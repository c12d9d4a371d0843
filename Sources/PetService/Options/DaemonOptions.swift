import PetBus
import PetCore

/// The daemon's command line (petprogress(7) §9): `--data-dir`, `--expect-data-dir`, `--now`,
/// `--time-scale`, `--version`, `--help`.
public struct DaemonOptions: Equatable, Sendable {
    public var dataDirectory: String?
    /// `--expect-data-dir`: the directory the data directory must be (the systemd unit's sandbox).
    public var expectedDataDirectory: String?
    /// `--now`: the simulated start instant (testing aid).
    public var now: Instant?
    /// `--time-scale`: simulated seconds per real second (testing aid).
    public var timeScale: Double?
    public var showHelp = false
    public var showVersion = false

    public init() {}

    /// Whether the simulated clock is in force.
    public var simulated: Bool { now != nil || timeScale != nil }

    /// A bad command line, with the sentence to print (exit 64, `EX_USAGE`).
    public struct UsageError: Error, Equatable {
        public let message: String
    }

    /// The largest `--time-scale`.
    public static let maximumTimeScale: Double = 1_000_000

    /// Parses the arguments after the program name. Accepts `--opt value` and `--opt=value`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions {
        var options = DaemonOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (name, inline) = split(argument)
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw UsageError(message: "\(name) needs a value.") }
                return next
            }
            switch name {
            case "--help", "-h": options.showHelp = true
            case "--version": options.showVersion = true
            case "--data-dir":
                let dir = try value()
                guard !dir.isEmpty else { throw UsageError(message: "--data-dir needs a directory.") }
                options.dataDirectory = dir
            case "--expect-data-dir":
                let dir = try value()
                guard dir.hasPrefix("/") else {
                    throw UsageError(message: "--expect-data-dir needs an absolute directory; got '\(dir)'.")
                }
                options.expectedDataDirectory = dir
            case "--now":
                let text = try value()
                guard let instant = ISO8601.parse(text) else {
                    throw UsageError(
                        message:
                            "--now takes an ISO 8601 instant with an offset or Z, e.g. 2026-03-02T08:00:00+01:00; got '\(text)'."
                    )
                }
                options.now = instant
            case "--time-scale":
                let text = try value()
                // Above a million (11.6 simulated days a second) the clock outruns the closeouts
                // and, far enough, Int64 instants: refuse rather than spin or trap.
                guard let scale = Double(text), scale.isFinite, scale > 0, scale <= maximumTimeScale else {
                    throw UsageError(
                        message:
                            "--time-scale takes a number above 0 and at most 1000000 (simulated seconds per real second); got '\(text)'."
                    )
                }
                options.timeScale = scale
            default:
                throw UsageError(message: "Unknown option '\(argument)'. See petprogressd --help.")
            }
        }
        return options
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
    }

    public static let help = """
        Usage: petprogressd [--data-dir DIR] [--expect-data-dir DIR] [--now ISO8601]
                            [--time-scale N]

        The Pet Progress daemon: owns the data, runs the rules, and publishes
        \(PetBus.name) on the session bus. Normally started by systemd --user
        or by D-Bus activation; stop it with SIGTERM.

        Options:
          --data-dir DIR      where the data lives (default $XDG_DATA_HOME/petprogress,
                              else ~/.local/share/petprogress)
          --expect-data-dir DIR
                              exit at start with status 78 (EX_CONFIG) and one log
                              line when the data directory is not DIR; the systemd
                              unit passes the one directory its sandbox lets it write
          --now ISO8601       FOR TESTS AND DEMOS: pretend the clock starts at this instant
                              (with an offset or Z); real clock jumps are then ignored
          --time-scale N      FOR TESTS AND DEMOS: run N simulated seconds per real second
                              (0 < N <= 1000000, fractional allowed); with --now or alone
          --version           print the version and exit
          -h, --help          print this help and exit

        The data directory must be yours: one of another user exits with status 78
        (EX_CONFIG) and one log line; one that group or others may use is repaired
        to 0700. A data directory that is itself a symbolic link, or that is inside
        a directory others can write to which is not sticky, exits with status 78.
        No file in it is followed if it is a symbolic link, and anything but a
        regular file of yours there (a FIFO, a link, another user's file) also
        exits with status 78 and a line naming it.
        """
}

/// The strict ISO 8601 instants `--now` accepts: `YYYY-MM-DDTHH:MM[:SS](Z|±HH:MM|±HHMM)`.
enum ISO8601 {
    static func parse(_ text: String) -> Instant? {
        let chars = Array(text)
        guard chars.count >= 17, chars[10] == "T" || chars[10] == " ",
            let date = CivilDate(parsing: String(chars[0..<10]))
        else { return nil }
        var i = 11
        func number(_ width: Int) -> Int? {
            guard i + width <= chars.count, chars[i..<i + width].allSatisfy({ ("0"..."9").contains($0) }) else {
                return nil
            }
            defer { i += width }
            return Int(String(chars[i..<i + width]))
        }
        guard let h = number(2), i < chars.count, chars[i] == ":" else { return nil }
        i += 1
        guard let m = number(2) else { return nil }
        var s = 0
        if i < chars.count, chars[i] == ":" {
            i += 1
            guard let sec = number(2) else { return nil }
            s = sec
        }
        guard h < 24, m < 60, s < 60, i < chars.count else { return nil }
        var offset = 0
        switch chars[i] {
        case "Z", "z":
            guard i + 1 == chars.count else { return nil }
        case "+", "-":
            let sign = chars[i] == "-" ? -1 : 1
            i += 1
            guard let oh = number(2) else { return nil }
            if i < chars.count, chars[i] == ":" { i += 1 }
            guard let om = number(2), i == chars.count, oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        default: return nil
        }
        return Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + s - offset)
    }
}
