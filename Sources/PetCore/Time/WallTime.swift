/// A local wall-clock time of day, minute precision: a task time or the reset time.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Parses exactly `HH:MM` (two ASCII digits each, `00:00`–`23:59`).
    public init?(parsing text: String) {
        let chars = Array(text)
        guard chars.count == 5, chars[2] == ":",
            [chars[0], chars[1], chars[3], chars[4]].allSatisfy(\.isASCIIDigit),
            let h = Int(String(chars[0...1])), let m = Int(String(chars[3...4]))
        else { return nil }
        self.init(hour: h, minute: m)
    }

    /// Parses `HH:MM` or throws `InvalidArgument` naming what was given.
    public static func parse(_ text: String, what: String = "time") throws(PetError) -> WallTime {
        guard let time = WallTime(parsing: text) else {
            throw PetError(.invalidArgument, "The \(what) must be HH:MM between 00:00 and 23:59, not \(quoted(text)).")
        }
        return time
    }

    public static let midnight = WallTime(hour: 0, minute: 0)!

    public var secondsSinceMidnight: Int { (hour * 60 + minute) * 60 }

    public var description: String { "\(pad(hour, 2)):\(pad(minute, 2))" }

    public static func < (a: WallTime, b: WallTime) -> Bool {
        a.secondsSinceMidnight < b.secondsSinceMidnight
    }
}

/// Quotes user input for an error sentence, shortened so a 1 MiB argument gives a short sentence.
public func quoted(_ text: String) -> String {
    let scalars = text.unicodeScalars
    let shown = scalars.count > 40 ? String(String.UnicodeScalarView(scalars.prefix(40))) + "…" : text
    let printable = shown.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }
    return "\"" + printable.joined() + "\""
}
