import ArgumentParser
import PetBus
import PetCore

/// `petctl settings [KEY [VALUE]]`: the four settings by friendly names.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: tr("Show or change the settings."),
        discussion: tr(
            """
            reset-time  when a day ends, typed like any time (04:00, 4am; a change shapes the next day)
            grace       minutes either side of a task's time that count as on time (0–720)
            snooze      minutes a snooze adds (1–240)
            rollover    on/off: copy unfinished tasks into the next day (still charged as missed)

            Examples:
              petctl settings
              petctl settings grace 30
              petctl settings rollover on
            """))

    enum Key: String, CaseIterable, ExpressibleByArgument {
        case resetTime = "reset-time"
        case grace, snooze, rollover

        var meaning: String {
            switch self {
            case .resetTime: tr("when a day ends")
            case .grace: tr("minutes either side of a task's time that count as on time (0–720)")
            case .snooze: tr("minutes a snooze adds (1–240)")
            case .rollover: tr("copy unfinished tasks into the next day")
            }
        }

        func value(in settings: PetCore.Settings) -> String {
            switch self {
            case .resetTime: settings.resetTime.description
            case .grace: "\(settings.graceMinutes)"
            case .snooze: "\(settings.snoozeMinutes)"
            case .rollover: settings.rollover ? "on" : "off"
            }
        }

        /// The change `text` asks for; nil when it is not even of the right form.
        func change(_ text: String) -> SettingChange? {
            switch self {
            case .resetTime:
                // Typed like every other time (4am, 0400, 4h, 04:00); "from now" is no time of day.
                if case .clock(let time)? = try? TimeInput.parse(text) { .resetTime(time.description) } else { nil }
            case .grace: UInt32(text).map { .graceMinutes($0) }
            case .snooze: UInt32(text).map { .snoozeMinutes($0) }
            case .rollover:
                ["on", "true", "yes", "1"].contains(text)
                    ? .rollover(true) : ["off", "false", "no", "0"].contains(text) ? .rollover(false) : nil
            }
        }
    }

    @Argument(help: ArgumentHelp(tr("reset-time, grace, snooze or rollover."))) var key: Key?

    @Argument(help: ArgumentHelp(tr("The new value."))) var value: String?

    func validate() throws {
        guard let key, let value else {
            if value != nil { throw ValidationError(tr("give a setting name before the value")) }
            return
        }
        guard key.change(value) != nil else {
            let form =
                switch key {
                case .resetTime: "HH:MM"
                case .grace, .snooze: tr("a whole number of minutes")
                case .rollover: tr("on or off")
                }
            throw ValidationError(tr("%s takes %s, not '%s'", key.rawValue, form, value))
        }
        // The bounds, named as the user typed the setting (the daemon's sentence names its property).
        let bounds: ClosedRange<UInt32>? =
            switch key {
            case .grace: 0...720
            case .snooze: 1...240
            case .resetTime, .rollover: nil
            }
        if let bounds, let minutes = UInt32(value), !bounds.contains(minutes) {
            throw ValidationError(
                tr(
                    "%s must be between %d and %d minutes, not %s", key.rawValue, Int(bounds.lowerBound),
                    Int(bounds.upperBound), value))
        }
    }

    func run() throws {
        let session = Session()
        let (settings, before, status) = try session.run { client in
            let before = try client.settings()
            if let key, let value, let change = key.change(value) { try client.set(change) }
            let status = key == .resetTime && value != nil ? try client.status() : nil
            return (try client.settings(), before, status)
        }
        if let key {
            var lines = ["\(key.rawValue) \(key.value(in: settings))"]
            // A new reset time shapes the next day: say when it takes effect.
            if key == .resetTime, let status, settings.resetTime != before.resetTime, status.openDayEnd > 0 {
                let clock = ClockStyle()
                lines.append(
                    tr(
                        "Today still ends at %s; the days after end at %s.", clock.time(status.openDayEnd),
                        clock.wall(settings.resetTime.description)))
            }
            Output.lines(lines)
            return
        }
        Output.lines(
            Key.allCases.map {
                "\(TextWidth.pad($0.rawValue, to: 10))  \(TextWidth.pad($0.value(in: settings), to: 5))  \($0.meaning)"
            })
    }
}
