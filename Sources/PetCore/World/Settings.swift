/// The user's settings (petprogress(7) §4), each validated on the way in.
public struct Settings: Hashable, Sendable {
    public var resetTime: WallTime = .midnight
    public var graceMinutes: Int = 60
    public var snoozeMinutes: Int = 15
    public var rollover: Bool = false

    public init() {}

    public static let graceRange = 0...720
    public static let snoozeRange = 1...240

    /// Checks a `GraceMinutes` value.
    public static func validGrace(_ value: Int) throws(PetError) -> Int {
        guard graceRange.contains(value) else {
            throw PetError(.invalidArgument, "GraceMinutes must be between 0 and 720, not \(value).")
        }
        return value
    }

    /// Checks a `SnoozeMinutes` value.
    public static func validSnooze(_ value: Int) throws(PetError) -> Int {
        guard snoozeRange.contains(value) else {
            throw PetError(.invalidArgument, "SnoozeMinutes must be between 1 and 240, not \(value).")
        }
        return value
    }
}
