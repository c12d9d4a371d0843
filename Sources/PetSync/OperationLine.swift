import PetCore

/// The text form of an operation: one line of tab-separated fields, UTF-8, in its device's log.
///
///     1 <tab> device <tab> seq <tab> wall.count <tab> at <tab> kind [<tab> argument]… <newline>
///
/// The first five fields keep this shape in every later version, so that an older reader can
/// still order (and keep) an operation whose kind it does not know. Strings are escaped with `%XX`
/// for `%`, tab, and every control character. A line longer than `maxBytes`, without its newline
/// (a partial file), or with a field out of bounds is skipped and counted, never half-read.
public enum OperationLine {
    public static let version = "1"
    public static let maxBytes = 2048
    /// 9999-12-31T23:59:59Z, the store's bound for instants (petprogress(7) §5).
    static let maxInstant: Instant = 253_402_300_799

    static func body(device: String, seq: UInt64, clock: HybridClock, at: Instant, change: Change) -> String {
        var fields = [version, device, String(seq), "\(clock.wall).\(clock.count)", String(at)]
        switch change {
        case .wake: fields.append("wake")
        case .add(let title, let time, let day, let rule):
            fields += ["add", escape(title), escape(time), day.description, escape(rule)]
        case .edit(let ref, let title, let time): fields += ["edit", escape(ref), escape(title), escape(time)]
        case .delete(let ref): fields += ["delete", escape(ref)]
        case .done(let ref): fields += ["done", escape(ref)]
        case .undo(let ref): fields += ["undo", escape(ref)]
        case .snooze(let ref): fields += ["snooze", escape(ref)]
        case .rest(let from, let to, let on): fields += ["rest", from.description, to.description, on ? "1" : "0"]
        case .resetTime(let t): fields += ["reset-time", escape(t)]
        case .grace(let n): fields += ["grace", String(n)]
        case .snoozeLength(let n): fields += ["snooze-length", String(n)]
        case .rollover(let on): fields += ["rollover", on ? "1" : "0"]
        case .seen(let cut, let count, let digest): fields += ["seen", String(cut), String(count), hex(digest)]
        case .forget(let device, let count, let digest): fields += ["forget", device, String(count), hex(digest)]
        case .unknown(let kind): fields.append(escape(kind))
        }
        return fields.joined(separator: "\t")
    }

    /// The operation on one line (without its newline), or nil when the line is not one.
    public static func parse(_ line: Substring) -> Operation? {
        guard line.utf8.count <= maxBytes else { return nil }
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count >= 6, isDeviceID(f[1]), let seq = UInt64(f[2]), seq > 0, seq < 1 << 53,
            let clock = parseClock(f[3]), let at = Instant(f[4]), (0...maxInstant).contains(at)
        else { return nil }
        let change: Change
        if f[0] != Substring(version) {
            change = .unknown("v\(f[0])")
        } else {
            guard let c = parseChange(kind: f[5], Array(f.dropFirst(6))) else { return nil }
            change = c
        }
        return Operation(device: String(f[1]), seq: seq, clock: clock, at: at, change: change)
    }

    /// Device ids: 1–64 of `A–Z a–z 0–9 -` (they name files).
    public static func isDeviceID(_ s: some StringProtocol) -> Bool {
        (1...64).contains(s.utf8.count) && s.utf8.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)
    }

    private static func parseClock(_ s: Substring) -> HybridClock? {
        let p = s.split(separator: ".", omittingEmptySubsequences: false)
        guard p.count == 2, let wall = Instant(p[0]), (0...maxInstant).contains(wall), let count = UInt32(p[1])
        else { return nil }
        return HybridClock(wall: wall, count: count)
    }

    private static func parseChange(kind: Substring, _ a: [Substring]) -> Change? {
        func ref(_ i: Int) -> TaskRef? { a.count > i ? unescape(a[i]).flatMap { $0.isEmpty ? nil : $0 } : nil }
        func key(_ i: Int) -> DayKey? { a.count > i ? CivilDate(parsing: String(a[i])) : nil }
        func flag(_ i: Int) -> Bool? { a.count > i && (a[i] == "0" || a[i] == "1") ? a[i] == "1" : nil }
        func int(_ i: Int) -> Int? { a.count > i ? Int(a[i]).flatMap { abs($0) <= 1_000_000_000 ? $0 : nil } : nil }
        func text(_ i: Int) -> String? { a.count > i ? unescape(a[i]) : nil }
        switch (kind, a.count) {
        case ("wake", 0): return .wake
        case ("add", 4):
            guard let t = text(0), let h = text(1), let d = key(2), let r = text(3) else { return nil }
            return .add(title: t, time: h, day: d, repeatRule: r)
        case ("edit", 3):
            guard let r = ref(0), let t = text(1), let h = text(2) else { return nil }
            return .edit(task: r, title: t, time: h)
        case ("delete", 1): return ref(0).map { .delete(task: $0) }
        case ("done", 1): return ref(0).map { .done(task: $0) }
        case ("undo", 1): return ref(0).map { .undo(task: $0) }
        case ("snooze", 1): return ref(0).map { .snooze(task: $0) }
        case ("rest", 3):
            guard let from = key(0), let to = key(1), let on = flag(2) else { return nil }
            return .rest(from: from, to: to, on: on)
        case ("reset-time", 1): return text(0).map { .resetTime($0) }
        case ("grace", 1): return int(0).map { .grace($0) }
        case ("snooze-length", 1): return int(0).map { .snoozeLength($0) }
        case ("rollover", 1): return flag(0).map { .rollover($0) }
        case ("seen", 3):
            guard let cut = Instant(a[0]), (0...maxInstant).contains(cut), let (count, digest) = summary(a[1], a[2])
            else { return nil }
            return .seen(cut: cut, count: count, digest: digest)
        case ("forget", 3):
            guard isDeviceID(a[0]), let (count, digest) = summary(a[1], a[2]) else { return nil }
            return .forget(device: String(a[0]), count: count, digest: digest)
        case ("wake", _), ("add", _), ("edit", _), ("delete", _), ("done", _), ("undo", _), ("snooze", _),
            ("rest", _), ("reset-time", _), ("grace", _), ("snooze-length", _), ("rollover", _), ("seen", _),
            ("forget", _):
            return nil
        default: return unescape(kind).map { .unknown($0) }
        }
    }

    /// A count and a digest (sixteen lowercase hexadecimal digits): a set's fingerprint.
    private static func summary(_ count: Substring, _ digest: Substring) -> (Int, UInt64)? {
        guard let n = Int(count), (0..<(1 << 53)).contains(n), digest.utf8.count == 16,
            digest.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
            let d = UInt64(digest, radix: 16)
        else { return nil }
        return (n, d)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            if scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7f {
                let h = String(scalar.value, radix: 16, uppercase: true)
                out += "%" + (h.count < 2 ? "0" + h : h)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescape(_ s: Substring) -> String? {
        guard s.contains("%") else { return String(s) }
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            guard b == UInt8(ascii: "%") else {
                bytes.append(b)
                continue
            }
            guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(v)
            it = it.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
