import ArgumentParser
import PetBus
import PetCore

/// A time as a person types it on the command line (petprogress(7) §7): a clock time, or a
/// moment from now. The bus takes only `HH:MM`; petctl turns the rest into it.
enum TimeInput: Equatable {
    /// `14:30`, `7:05`, `0705`, `7pm`, `7:05pm`, `19h`, `19h05`.
    case clock(WallTime)
    /// `+20m`, `+2h`, `+1h30m`: this many minutes from the daemon's now.
    case later(minutes: Int)

    /// What every refusal ends with.
    static var examples: String { tr("e.g. 14:30, 7:05, 0705, 7pm, 7:05pm, 19h, +20m or +1h30m") }

    /// Parses `text` (the whole grammar is in petprogress(7) §7), or throws a sentence with examples.
    static func parse(_ text: String) throws(TimeInputError) -> TimeInput {
        let t = text.lowercased()
        guard !t.isEmpty, t.unicodeScalars.allSatisfy({ $0.isASCII }) else { throw refusal(text) }
        if t.hasPrefix("+") { return try later(String(t.dropFirst()), text) }
        if t.hasSuffix("am") || t.hasSuffix("pm") { return try twelveHour(t, text) }
        if let h = t.firstIndex(of: "h") {
            // 19h, 19h05
            let hour = t[..<h]
            let minute = t[t.index(after: h)...]
            guard (1...2).contains(hour.count), minute.isEmpty || minute.count == 2 else { throw refusal(text) }
            return try clock(hour, minute.isEmpty ? "00" : minute, text)
        }
        if let colon = t.firstIndex(of: ":") {
            let hour = t[..<colon]
            let minute = t[t.index(after: colon)...]
            guard (1...2).contains(hour.count), minute.count == 2 else { throw refusal(text) }
            return try clock(hour, minute, text)
        }
        guard t.count == 4 else {
            // An hour alone: 1–12 could be either half of the day; 0 and 13–23 only need their
            // minutes; 24 and past are no hour at all (never suggest 25:00 or 25pm).
            if let hour = digits(t), t.count <= 2 {
                if (1...12).contains(hour) {
                    throw TimeInputError(
                        tr("%1$s is ambiguous: write %2$s:00, %2$sam or %2$spm (%3$s)", quoted(text), t, examples))
                }
                if hour <= 23 {
                    throw TimeInputError(tr("%1$s needs its minutes: write %2$s:00 (%3$s)", quoted(text), t, examples))
                }
            }
            throw refusal(text)
        }
        return try clock(t.prefix(2), t.suffix(2), text)
    }

    /// `H[H]am`, `H[H]:MMam` (and pm): hours 1–12; 12am is midnight, 12pm noon.
    private static func twelveHour(_ t: String, _ text: String) throws(TimeInputError) -> TimeInput {
        let body = t.dropLast(2)
        let (hourText, minuteText): (Substring, Substring)
        if let colon = body.firstIndex(of: ":") {
            (hourText, minuteText) = (body[..<colon], body[body.index(after: colon)...])
            guard minuteText.count == 2 else { throw refusal(text) }
        } else {
            (hourText, minuteText) = (body, "00")
        }
        guard (1...2).contains(hourText.count), let hour = digits(hourText), (1...12).contains(hour) else {
            throw refusal(text)
        }
        let hour24 = hour % 12 + (t.hasSuffix("pm") ? 12 : 0)
        return try clock(Substring(String(hour24)), minuteText, text)
    }

    /// `+Nm`, `+Nh`, `+NhMm`: at least one minute, at most a day.
    private static func later(_ t: String, _ text: String) throws(TimeInputError) -> TimeInput {
        var rest = Substring(t)
        var minutes = 0
        var units = 0
        for (unit, size) in [("h", 60), ("m", 1)] {
            guard let end = rest.firstIndex(of: Character(unit)) else { continue }
            guard (1...4).contains(rest[..<end].count), let n = digits(rest[..<end]) else { throw refusal(text) }
            minutes += n * size
            units += 1
            rest = rest[rest.index(after: end)...]
        }
        guard rest.isEmpty, units > 0 else { throw refusal(text) }
        guard (1...24 * 60).contains(minutes) else {
            throw TimeInputError(tr("%s must be between +1m and +24h (%s)", quoted(text), examples))
        }
        return .later(minutes: minutes)
    }

    private static func clock(_ hour: Substring, _ minute: Substring, _ text: String) throws(TimeInputError)
        -> TimeInput
    {
        guard let h = digits(hour), let m = digits(minute), let time = WallTime(hour: h, minute: m) else {
            throw refusal(text)
        }
        return .clock(time)
    }

    private static func digits(_ s: Substring) -> Int? { s.allSatisfy { ("0"..."9").contains($0) } ? Int(s) : nil }
    private static func digits(_ s: String) -> Int? { digits(Substring(s)) }

    private static func refusal(_ text: String) -> TimeInputError {
        TimeInputError(tr("%s is not a time petctl understands (%s)", quoted(text), examples))
    }

    /// The `HH:MM` to send: the clock time, or `now` plus the minutes rounded up to the next whole
    /// minute, as `wallTime` shows it — refused when that is at or past `dayEnd` (the open day's end).
    func resolve(now: Instant, dayEnd: Instant, wallTime: (Instant) -> String) throws(TimeInputError) -> String {
        switch self {
        case .clock(let time): return time.description
        case .later(let minutes):
            let target = now + Instant(minutes * 60)
            let rounded = target % 60 == 0 ? target : target - target % 60 + 60
            guard dayEnd == 0 || rounded < dayEnd else {
                throw TimeInputError(
                    tr(
                        "+%dm from %s is %s, past today's end at %s; add it for tomorrow with a clock time: petctl add --tomorrow 09:00 …",
                        minutes, wallTime(now), wallTime(rounded), wallTime(dayEnd)))
            }
            return wallTime(rounded)
        }
    }
}

/// A time petctl refuses, with the sentence that says what to type.
struct TimeInputError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

extension TimeInput {
    /// The grammar in a line of help.
    static var help: String { tr("14:30, 7:05, 0705, 7pm, 7:05pm, 19h, or from now +20m, +1h30m.") }

    /// `text` parsed, or bad usage (64) with the sentence.
    static func validated(_ text: String) throws -> TimeInput {
        do throws(TimeInputError) {
            return try parse(text)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The `HH:MM` to send for `text`: "from now" is on the daemon's clock (`GetStatus`'s `now`,
    /// which `--now`/`--time-scale` move) and refused at or past the open day's end (exit 1).
    static func wallTime(_ text: String, _ client: PetClient) throws -> String {
        let input = try validated(text)
        guard case .later = input else { return try input.resolve(now: 0, dayEnd: 0, wallTime: LocalClock.hhmm) }
        let status = try client.status()
        // The daemon's zone, not this shell's `TZ` (a traveller, a daemon started from
        // /etc/localtime): the daemon reads the `HH:MM` in its own zone. A daemon that does not
        // say its zone gets this process's wall clock, as before.
        let wallTime = { (t: Instant) in status.daemonHHMM(at: t) ?? LocalClock.hhmm(t) }
        do throws(TimeInputError) {
            return try input.resolve(now: status.now, dayEnd: status.openDayEnd, wallTime: wallTime)
        } catch {
            throw Session.refuse(error.message)
        }
    }
}
