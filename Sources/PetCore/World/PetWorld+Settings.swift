/// Changing settings (petprogress(7) §4). A changed reset time shapes the next day, not the open one.
extension PetWorld {
    public mutating func setResetTime(_ text: String) throws(PetError) {
        settings.resetTime = try WallTime.parse(text, what: "reset time")
        _ = recordMutation()
    }

    public mutating func setGraceMinutes(_ value: Int) throws(PetError) {
        settings.graceMinutes = try Settings.validGrace(value)
        _ = recordMutation()
    }

    public mutating func setSnoozeMinutes(_ value: Int) throws(PetError) {
        settings.snoozeMinutes = try Settings.validSnooze(value)
        _ = recordMutation()
    }

    public mutating func setRollover(_ on: Bool) {
        settings.rollover = on
        _ = recordMutation()
    }
}
