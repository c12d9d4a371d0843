/// Why zone data could not be used: a TZif file or a POSIX TZ rule that is malformed. The message
/// is one sentence fragment naming the problem (the caller adds which file or variable it was).
public struct ZoneError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// `text` with control characters shown as `?`, so that it can go into a log line or a D-Bus
    /// string (which may not hold NUL), at most `limit` characters.
    public static func printable(_ text: String, limit: Int = 200) -> String {
        let shown = String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(limit).map {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0
                }))
        return text.unicodeScalars.count > limit ? shown + "…" : shown
    }
}
